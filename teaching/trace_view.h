// Pictures of a trace (teaching/trace_file.h): a text summary with the pipeline diagram
// of `mmsim access` when it fits, and an SVG of any size with the global pipeline and the k shared
// pipelines of the HMM as separate lanes, the rounds as bars (overlapping ones, in asynchronous
// execution, on separate rows), and each lane's slots entering and in flight over time.
#pragma once

#include <string>

#include "report/json.h"
#include "teaching/trace_file.h"

namespace mmsim::teaching {

/// The rounds table, the lanes, and the stage-by-time diagram when it fits (else a line saying why
/// it was left out and what shows every slot instead).
std::string trace_text(const TraceFile& t, const std::string& file);

/// {file, slots, time_units, overlapping, lanes: [...], rounds: [...]}: the summary as data.
report::Json trace_json(const TraceFile& t, const std::string& file);

/// The SVG. Up to `width` px of time axis a slot's entry is drawn as its own mark (with a tooltip);
/// beyond, each pixel column sums the time units it covers, and the picture says so. The axis spans
/// `axis_end` time units when that is longer than the trace (0: the trace's own), so that two
/// traces drawn with one axis_end share one scale (the explorer's run view).
std::string trace_svg(const TraceFile& t, const std::string& file, int width = 1250, TimeUnits axis_end = 0);

}  // namespace mmsim::teaching
