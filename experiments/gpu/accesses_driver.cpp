#include "experiments/gpu/accesses_driver.h"

#include "cuda/harness/device.h"
#include "cuda/harness/error.h"
#include "experiments/gpu/timing_parameters.h"

namespace mmsim::gpu::accesses {

namespace {

constexpr Launch kProfiled{.blocks = 2, .warps = 4, .repeats = 16, .warp_stride = 0};

Space space_of(mmsim::Space s) { return s == mmsim::Space::Shared ? Space::Shared : Space::Global; }

Instr instr_of(experiments::AccessInstr i) {
  switch (i) {
    case experiments::AccessInstr::Load:
      return Instr::Load;
    case experiments::AccessInstr::Store:
      return Instr::Store;
    case experiments::AccessInstr::AtomicAdd:
      return Instr::AtomicAdd;
    case experiments::AccessInstr::ReduceAddOne:
      return Instr::ReduceAddOne;
    case experiments::AccessInstr::ReduceAddValue:
      return Instr::ReduceAddValue;
  }
  return Instr::Load;
}

}  // namespace

WarpInstruction instruction_of(const experiments::AccessCase& c) {
  WarpInstruction w{.space = space_of(c.space), .instr = instr_of(c.instr), .bytes = c.bytes_per_lane(), .offset = {}};
  for (std::uint32_t t = 0; t < kLanes; ++t)
    w.offset[t] =
        c.index[t] == experiments::kIdleLane ? kIdle : static_cast<std::uint32_t>(c.index[t]) * c.element_bytes;
  return w;
}

std::size_t profile_launches() {
  std::size_t n = 0;
  for (const auto& c : experiments::access_cases()) {
    launch_once(instruction_of(c), kProfiled);
    ++n;
  }
  return n;
}

report::Table atomic_times(const TimingPlan& plan) {
  const DeviceInfo d = device_info();
  report::Table t;
  t.title = "Atomic adds on " + d.name + ": ns per warp instruction";
  t.columns = {
      "case", "space", "regime", "blocks", "warps_per_block", "repeats", "median_ms", "ns_per_warp_instruction"};
  t.parameters = timing_parameters(d.name, plan.runs, plan.warmups, std::nullopt);
  for (const auto& c : experiments::access_cases()) {
    if (c.instr == experiments::AccessInstr::Load || c.instr == experiments::AccessInstr::Store) continue;
    const WarpInstruction w = instruction_of(c);
    const bool shared = c.space == mmsim::Space::Shared;
    // Own addresses: global warps 4 KiB apart; shared: one warp a block, 8 blocks an SM.
    // Same addresses: every warp of the launch (global) or of a block of 8 warps (shared).
    const Launch own = shared ? Launch{static_cast<std::uint32_t>(d.sm_count) * 8, 1, 256, 0}
                              : Launch{static_cast<std::uint32_t>(d.sm_count) * 4, 8, 64, 4096};
    const Launch same = shared ? Launch{static_cast<std::uint32_t>(d.sm_count), 8, 256, 0}
                               : Launch{static_cast<std::uint32_t>(d.sm_count) * 4, 8, 64, 0};
    for (const auto& [regime, l] : {std::pair{"own-addresses", own}, std::pair{"same-addresses", same}}) {
      const Timing tm = time_launch(w, l, plan);
      const double instructions = double(l.blocks) * l.warps * l.repeats;
      t.add_row({c.name, shared ? "shared" : "global", regime, static_cast<long long>(l.blocks),
                 static_cast<long long>(l.warps), static_cast<long long>(l.repeats), tm.median_ms,
                 tm.median_ms * 1e6 / instructions});
    }
  }
  return t;
}

report::Table histogram_times(const HistogramOptions& o, const TimingPlan& plan, bool& all_correct) {
  report::Table t;
  t.title = "Histograms on " + device_info().name;
  t.columns = {"distribution", "keys", "bins", "kind", "median_ms", "min_ms", "max_ms", "correct"};
  t.parameters = timing_parameters(device_info().name, plan.runs, plan.warmups, o.seed);
  all_correct = true;
  for (const auto d : experiments::kKeyDistributions) {
    const auto keys = experiments::histogram_keys(o.keys, o.bins, d, o.seed);
    for (const auto kind :
         {HistogramKind::Global, HistogramKind::GlobalAtom, HistogramKind::Shared, HistogramKind::SharedAtom}) {
      const HistogramRun r = histogram(keys, o.bins, kind, plan);
      all_correct = all_correct && r.correct;
      t.add_row({std::string(experiments::to_string(d)), static_cast<long long>(o.keys), static_cast<long long>(o.bins),
                 std::string(to_string(kind)), r.timing.median_ms, r.timing.min_ms, r.timing.max_ms,
                 std::string(r.correct ? "yes" : "NO")});
    }
  }
  return t;
}

}  // namespace mmsim::gpu::accesses
