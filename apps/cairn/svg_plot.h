// SPDX-License-Identifier: MIT
// The SVG plotter of the cairn tool, shared by `compare --svg` and `plot`: line series over one x
// axis, in one or more panels stacked top to bottom, each with its own y axis (round ticks, a label
// with the unit) and a legend beside it; one colour per series.
#pragma once

#include <stdio.h>

/// One line of a plot: count points read through point(). Points with a non-finite coordinate are
/// left out.
typedef struct svgSeries
{
	/// legend text
	const char* label;
	/// the panel it is drawn in (an index into svgPlot.panels)
	int panel;
	int count;
	/// point i of the series, 0 <= i < count
	void ( *point )( const void* data, int i, double* x, double* y );
	const void* data;
} svgSeries;

/// A panel: a plot area with its own y axis.
typedef struct svgPanel
{
	/// the y axis label with its unit, e.g. "height (m)"
	const char* yLabel;
} svgPanel;

/// A whole plot.
typedef struct svgPlot
{
	const char* title;
	/// the x axis label with its unit, e.g. "time (s)"
	const char* xLabel;
	/// the x range shown (widened to whole ticks)
	double xMin, xMax;
	const svgPanel* panels;
	int panelCount;
	/// drawn in this order; series i gets colour i (series past the palette get dashes too)
	const svgSeries* series;
	int seriesCount;
	/// picture width in pixels, at least 900 (0: 900); wider leaves room for long legend texts
	int width;
} svgPlot;

/// Writes the plot as a standalone SVG document.
void svgWritePlot( FILE* file, const svgPlot* plot );

/// Writes text for XML character data or an attribute value.
void svgWriteXmlText( FILE* file, const char* text );

/// The picture width that leaves room for a legend text of this many characters.
int svgWidthForLegend( int characters );
