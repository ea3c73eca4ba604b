// SPDX-License-Identifier: MIT
// The SVG plotter of the cairn tool (svg_plot.h): axes with round ticks, panels, polylines thinned
// per pixel column, legends.
#include "svg_plot.h"

#include <math.h>
#include <stdbool.h>

void svgWriteXmlText( FILE* file, const char* text )
{
	// the markup characters are escaped; control characters, which XML 1.0 does not allow at all,
	// are replaced
	for ( const unsigned char* c = (const unsigned char*)text; *c != 0; ++c )
	{
		switch ( *c )
		{
			case '&':
				fputs( "&amp;", file );
				break;
			case '<':
				fputs( "&lt;", file );
				break;
			case '>':
				fputs( "&gt;", file );
				break;
			case '"':
				fputs( "&quot;", file );
				break;
			default:
				fputc( *c < 0x20 ? '?' : *c, file );
				break;
		}
	}
}

// A round tick spacing near span / count: 1, 2 or 5 times a power of ten.
static double svgNiceStep( double span, int count )
{
	double raw = span / count;
	double power = pow( 10.0, floor( log10( raw ) ) );
	double f = raw / power;
	double nice = f < 1.5 ? 1.0 : ( f < 3.0 ? 2.0 : ( f < 7.0 ? 5.0 : 10.0 ) );
	return nice * power;
}

// Formats a tick value with just enough significant digits to tell ticks step apart.
static void svgFormatTick( char* buffer, size_t size, double value, double step, double largest )
{
	int digits = (int)floor( log10( fmax( largest, step ) ) ) - (int)floor( log10( step ) ) + 1;
	digits = digits < 1 ? 1 : ( digits > 15 ? 15 : digits );
	snprintf( buffer, size, "%.*g", digits, value );
}

// Axis from lo to hi with round ticks; widens the range to whole ticks.
typedef struct svgAxis
{
	double lo, hi, step;
	int ticks;
} svgAxis;

static svgAxis svgMakeAxis( double lo, double hi )
{
	svgAxis axis;
	if ( hi - lo <= 1e-12 * fmax( 1.0, fmax( fabs( lo ), fabs( hi ) ) ) )
	{
		// a flat line: centre it in a band of a thousandth of its value (or of 1)
		double pad = 1e-3 * fmax( 1.0, fabs( hi ) );
		lo -= pad;
		hi += pad;
	}
	axis.step = svgNiceStep( hi - lo, 6 );
	axis.lo = floor( lo / axis.step ) * axis.step;
	axis.hi = ceil( hi / axis.step ) * axis.step;
	axis.ticks = (int)floor( ( axis.hi - axis.lo ) / axis.step + 0.5 ) + 1;
	return axis;
}

// Tick i of an axis; exactly 0 where it should be, not 1e-17.
static double svgTick( const svgAxis* axis, int i )
{
	double v = axis->lo + i * axis->step;
	return fabs( v ) < 1e-9 * axis->step ? 0.0 : v;
}

enum
{
	svgDefaultWidth = 900,
	svgPlotLeft = 100,
	svgPlotRight = 670,
	svgPlotTop = 50,
	// a single panel is this tall; stacked panels are shorter, but tall enough for their legend
	svgSinglePanelHeight = 410,
	svgStackedPanelHeight = 260,
	// from a panel's bottom to the next one's top: its tick labels and some air
	svgPanelGap = 60,
	// below the last panel: tick labels and the x axis label
	svgBottomMargin = 60,
	svgLegendRow = 20,
	svgLegendText = svgPlotRight + 52,
};

static const char* const svgColors[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
										 "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f" };

// series past the palette repeat its colours, told apart by a dash pattern per round
static const char* const svgDashes[] = { "6,3", "2,2", "8,3,2,3" };

enum
{
	svgColorCount = sizeof( svgColors ) / sizeof( svgColors[0] ),
	svgDashCount = sizeof( svgDashes ) / sizeof( svgDashes[0] ),
};

int svgWidthForLegend( int characters )
{
	// about 7 pixels per character of the 12-pixel sans-serif font, and a margin
	int width = svgLegendText + 7 * characters + 10;
	return width > svgDefaultWidth ? width : svgDefaultWidth;
}

// Writes the colour attributes of series i: stroke, and a dash pattern past the palette.
static void svgWriteStroke( FILE* file, int i )
{
	fprintf( file, "stroke=\"%s\"", svgColors[i % svgColorCount] );
	if ( i >= svgColorCount )
	{
		fprintf( file, " stroke-dasharray=\"%s\"", svgDashes[( i / svgColorCount - 1 ) % svgDashCount] );
	}
}

// Where a panel lies on the picture.
typedef struct svgFrame
{
	int top, bottom;
	svgAxis y;
} svgFrame;

static double svgMapX( const svgAxis* x, double t )
{
	return svgPlotLeft + ( t - x->lo ) / ( x->hi - x->lo ) * ( svgPlotRight - svgPlotLeft );
}

static double svgMapY( const svgFrame* frame, double v )
{
	const svgAxis* y = &frame->y;
	return frame->bottom - ( v - y->lo ) / ( y->hi - y->lo ) * ( frame->bottom - frame->top );
}

static void svgPoint( const svgSeries* series, int i, double* x, double* y )
{
	series->point( series->data, i, x, y );
}

static bool svgIsFinite( double x, double y )
{
	return isfinite( x ) && isfinite( y );
}

// One polyline per series. Long series are thinned per pixel column to the column's first, lowest,
// highest and last point, so spikes survive and the file stays small.
static void svgWritePolyline( FILE* file, const svgSeries* series, int index, const svgAxis* x, const svgFrame* frame )
{
	fputs( "<polyline fill=\"none\" ", file );
	svgWriteStroke( file, index );
	fputs( " stroke-width=\"1.5\" points=\"", file );
	int n = series->count;
	int i = 0;
	while ( i < n )
	{
		double px, py;
		svgPoint( series, i, &px, &py );
		if ( svgIsFinite( px, py ) == false )
		{
			++i;
			continue;
		}
		int column = (int)floor( svgMapX( x, px ) );
		int first = i, lo = i, hi = i, last = i;
		double loValue = py, hiValue = py;
		for ( ++i; i < n; ++i )
		{
			double qx, qy;
			svgPoint( series, i, &qx, &qy );
			if ( svgIsFinite( qx, qy ) == false )
			{
				continue;
			}
			if ( (int)floor( svgMapX( x, qx ) ) != column )
			{
				break;
			}
			if ( qy < loValue )
			{
				lo = i;
				loValue = qy;
			}
			if ( qy > hiValue )
			{
				hi = i;
				hiValue = qy;
			}
			last = i;
		}
		int keep[4] = { first, lo < hi ? lo : hi, lo < hi ? hi : lo, last };
		for ( int j = 0; j < 4; ++j )
		{
			if ( j > 0 && keep[j] == keep[j - 1] )
			{
				continue;
			}
			double kx, ky;
			svgPoint( series, keep[j], &kx, &ky );
			fprintf( file, "%.2f,%.2f ", svgMapX( x, kx ), svgMapY( frame, ky ) );
		}
	}
	fputs( "\"/>\n", file );
}

// The y range of a panel's series, over their finite points.
static svgAxis svgPanelAxis( const svgPlot* plot, int panel )
{
	double lo = INFINITY, hi = -INFINITY;
	for ( int s = 0; s < plot->seriesCount; ++s )
	{
		const svgSeries* series = plot->series + s;
		if ( series->panel != panel )
		{
			continue;
		}
		for ( int i = 0; i < series->count; ++i )
		{
			double px, py;
			svgPoint( series, i, &px, &py );
			if ( svgIsFinite( px, py ) )
			{
				lo = fmin( lo, py );
				hi = fmax( hi, py );
			}
		}
	}
	if ( lo > hi )
	{
		lo = hi = 0.0;
	}
	return svgMakeAxis( lo, hi );
}

static void svgWritePanel( FILE* file, const svgPlot* plot, int panel, const svgAxis* x, const svgFrame* frame,
						   bool last )
{
	int top = frame->top, bottom = frame->bottom;
	const svgAxis* y = &frame->y;

	// grid, ticks and their labels
	char label[64];
	for ( int i = 0; i < x->ticks; ++i )
	{
		double t = svgTick( x, i );
		double px = svgMapX( x, t );
		svgFormatTick( label, sizeof( label ), t, x->step, fmax( fabs( x->lo ), fabs( x->hi ) ) );
		fprintf( file,
				 "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#e0e0e0\"/>\n"
				 "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"black\"/>\n"
				 "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
				 px, top, px, bottom, px, bottom, px, bottom + 5, px, bottom + 20, label );
	}
	for ( int i = 0; i < y->ticks; ++i )
	{
		double v = svgTick( y, i );
		double py = svgMapY( frame, v );
		svgFormatTick( label, sizeof( label ), v, y->step, fmax( fabs( y->lo ), fabs( y->hi ) ) );
		fprintf( file,
				 "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#e0e0e0\"/>\n"
				 "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"black\"/>\n"
				 "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n",
				 svgPlotLeft, py, svgPlotRight, py, svgPlotLeft - 5, py, svgPlotLeft, py, svgPlotLeft - 8, py + 4,
				 label );
	}

	// the frame, the x axis label under the last panel, the y axis label
	fprintf( file, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n", svgPlotLeft,
			 top, svgPlotRight - svgPlotLeft, bottom - top );
	if ( last )
	{
		fprintf( file, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", ( svgPlotLeft + svgPlotRight ) / 2,
				 bottom + 45 );
		svgWriteXmlText( file, plot->xLabel );
		fputs( "</text>\n", file );
	}
	int middle = ( top + bottom ) / 2;
	fprintf( file, "<text x=\"20\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 20 %d)\">", middle, middle );
	svgWriteXmlText( file, plot->panels[panel].yLabel );
	fputs( "</text>\n", file );

	// the panel's lines, then its legend
	for ( int s = 0; s < plot->seriesCount; ++s )
	{
		if ( plot->series[s].panel == panel )
		{
			svgWritePolyline( file, plot->series + s, s, x, frame );
		}
	}
	int row = 0;
	for ( int s = 0; s < plot->seriesCount; ++s )
	{
		if ( plot->series[s].panel != panel )
		{
			continue;
		}
		int ly = top + 10 + svgLegendRow * row++;
		fprintf( file, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" ", svgPlotRight + 20, ly, svgPlotRight + 45, ly );
		svgWriteStroke( file, s );
		fprintf( file, " stroke-width=\"3\"/>\n<text x=\"%d\" y=\"%d\">", svgLegendText, ly + 4 );
		svgWriteXmlText( file, plot->series[s].label );
		fputs( "</text>\n", file );
	}
}

// A panel's height: one panel fills the picture; stacked ones are shorter, each at least as tall as
// its legend.
static int svgPanelHeight( const svgPlot* plot, int panel )
{
	int entries = 0;
	for ( int s = 0; s < plot->seriesCount; ++s )
	{
		entries += plot->series[s].panel == panel;
	}
	int height = plot->panelCount == 1 ? svgSinglePanelHeight : svgStackedPanelHeight;
	return height > svgLegendRow * ( entries + 1 ) ? height : svgLegendRow * ( entries + 1 );
}

void svgWritePlot( FILE* file, const svgPlot* plot )
{
	int bottom = svgPlotTop - svgPanelGap;
	for ( int p = 0; p < plot->panelCount; ++p )
	{
		bottom += svgPanelGap + svgPanelHeight( plot, p );
	}
	int width = plot->width > svgDefaultWidth ? plot->width : svgDefaultWidth;
	int height = bottom + svgBottomMargin;

	fprintf( file,
			 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
			 "font-family=\"sans-serif\" font-size=\"12\">\n"
			 "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
			 width, height, width, height );
	fprintf( file, "<text x=\"%d\" y=\"28\" text-anchor=\"middle\" font-size=\"16\">",
			 ( svgPlotLeft + svgPlotRight ) / 2 );
	svgWriteXmlText( file, plot->title );
	fputs( "</text>\n", file );

	svgAxis x = svgMakeAxis( plot->xMin, plot->xMax );
	int top = svgPlotTop;
	for ( int p = 0; p < plot->panelCount; ++p )
	{
		svgFrame frame;
		frame.top = top;
		frame.bottom = top + svgPanelHeight( plot, p );
		frame.y = svgPanelAxis( plot, p );
		svgWritePanel( file, plot, p, &x, &frame, p == plot->panelCount - 1 );
		top = frame.bottom + svgPanelGap;
	}
	fputs( "</svg>\n", file );
}
