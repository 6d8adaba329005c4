// `mmsim trace FILE` (experiments/teaching/trace_file.h, trace_view.h): the whole input is a trace.
// One that is read must also be drawn (the picture code trusts what the reader checked); any
// other must be refused with InputError.
#include <sstream>

#include "algorithms/input_error.h"
#include "experiments/teaching/trace_file.h"
#include "experiments/teaching/trace_view.h"
#include "fuzz_target.h"

MMSIM_FUZZ_TARGET(trace_csv) {
  std::istringstream in{std::string(mmsim::fuzz::text_of(data))};
  try {
    const auto t = mmsim::experiments::read_trace(in, "fuzz.csv");
    const std::string text = mmsim::experiments::trace_text(t, "fuzz.csv");
    mmsim::fuzz::require(!text.empty(), "a trace that was read draws as nothing");
  } catch (const mmsim::InputError&) {
  }
}
