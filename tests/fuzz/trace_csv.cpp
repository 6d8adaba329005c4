// `mmsim trace FILE` (teaching/trace_file.h, trace_view.h): the whole input is a trace.
// One that is read must also be drawn (the picture code trusts what the reader checked); any
// other must be refused with InputError.
#include <sstream>

#include "fuzz_target.h"
#include "io/input_error.h"
#include "teaching/trace_file.h"
#include "teaching/trace_view.h"

MMSIM_FUZZ_TARGET(trace_csv) {
  std::istringstream in{std::string(mmsim::fuzz::text_of(data))};
  try {
    const auto t = mmsim::teaching::read_trace(in, "fuzz.csv");
    const std::string text = mmsim::teaching::trace_text(t, "fuzz.csv");
    mmsim::fuzz::require(!text.empty(), "a trace that was read draws as nothing");
  } catch (const mmsim::InputError&) {
  }
}
