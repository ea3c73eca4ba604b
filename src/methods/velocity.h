// SPDX-License-Identifier: MIT
// Velocity-level contact methods (lcp, velocity-projection, gr-lcp, gr-velocity-projection); their
// modules are in methods/method.h. See docs/method-velocity.md.
#pragma once
