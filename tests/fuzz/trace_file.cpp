// A traced run's file (kernels/trace_file.h; docs/traced-runs.md): the bytes are the file. It is
// read or refused with InputError; a trace that is read becomes a description whose every memory
// step has one address a thread, which validates, and (when small) replays or is refused with
// InputError, never anything else.
#include "kernels/trace_file.h"

#include "fuzz_target.h"
#include "io/input_error.h"

MMSIM_FUZZ_TARGET(trace_file) {
  namespace k = mmsim::kernels;
  try {
    const k::Trace trace = k::parse_trace(mmsim::fuzz::text_of(data), "fuzz.mmtrace");
    const k::ProgramSpec spec = k::trace_program(trace, k::trace_machine(trace));
    std::uint64_t work = 0;
    for (const k::KernelSpec& kernel : spec.kernels) {
      const std::uint64_t threads = kernel.blocks * kernel.threads_per_block;
      for (const k::StepSpec& s : kernel.steps)
        if (s.kind != k::StepKind::Barrier)
          mmsim::fuzz::require(s.addresses && s.addresses->index.size() == threads,
                               "a traced step without one address a thread");
      work += threads * kernel.steps.size();
    }
    k::validate(spec);
    if (work <= (1u << 16)) {
      mmsim::EngineOptions options;
      options.threads = 1;
      (void)k::run_program(spec, options);
    }
  } catch (const mmsim::InputError&) {
  }
}
