// A kernel of one's own on the HMM, run by mmsim's engine and printed by mmsim's report writers:
// a strided gather b[i] = a[tile(i) + (local(i) * stride) mod T] inside each block's tile of T
// elements, done the way a GPU programmer would do it, through the block's shared memory:
//
//   load   r0 <- a[i]                            global, coalesced: one address group per warp
//   stage  tile[local] <- r0                     shared, conflict-free
//   (block barrier)
//   gather r0 <- tile[(local * stride) mod T]    shared: the strided access lands here
//   store  b[i] <- r0                            global, coalesced
//
// Reading a[] directly with the stride would cost a warp up to w address groups in the global
// memory; staged, the stride costs only shared-memory bank conflicts, none when gcd(stride, T) = 1
// (bank = local * stride mod w, a bijection over a warp's w threads). The round-synchronous closed
// form, docs/model.md's rules applied to the four rounds, is printed beside the simulated time:
//   2 (n / w + L - 1) + 2 (ceil(blocks / k) T / w + l - 1).
//
//   custom_kernel [--json] [--async] [-w W] [--stride S] [--blocks B] [--threads T]
#include <charconv>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <string>

#include "algorithms/run_output.h"  // to_json / to_text of a RunReport
#include "models/machines.h"        // Machine, MachineParams: the HMM
#include "sim/engine.h"             // Engine, Kernel, Access, BlockBarrier

namespace {

struct Options {
  mmsim::MachineParams machine{.model = mmsim::ModelKind::Hmm, .w = 32, .l = 1, .L = 100, .k = 8};
  std::int64_t stride = 3, blocks = 16, threads = 64;
  bool json = false, async = false;
};

// Parses the options above; on a bad one prints one line and returns false.
bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json") {
      o.json = true;
      continue;
    }
    if (arg == "--async") {
      o.async = true;
      continue;
    }
    std::int64_t* field = arg == "--stride"    ? &o.stride
                          : arg == "--blocks"  ? &o.blocks
                          : arg == "--threads" ? &o.threads
                                               : nullptr;
    std::int64_t w = 0;
    if (arg == "-w") field = &w;
    if (field == nullptr || i + 1 == argc) {
      std::fprintf(stderr, "custom_kernel: unknown option or missing value: %s\n", arg.c_str());
      return false;
    }
    const std::string v = argv[++i];
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), *field);
    if (ec != std::errc{} || end != v.data() + v.size() || *field < 1 || *field > (1 << 20)) {
      std::fprintf(stderr, "custom_kernel: %s: must be an integer in [1, 2^20] (got '%s')\n", arg.c_str(), v.c_str());
      return false;
    }
    if (field == &w) o.machine.w = static_cast<int>(w);
  }
  if (o.threads % o.machine.w != 0) {
    std::fprintf(stderr, "custom_kernel: --threads: must be a multiple of w = %d\n", o.machine.w);
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace mmsim;
  Options o;
  if (!parse(argc, argv, o)) return 2;
  const auto T = static_cast<std::uint64_t>(o.threads);
  const auto n = static_cast<std::uint64_t>(o.blocks) * T;
  const auto stride = static_cast<std::uint64_t>(o.stride);

  const Machine machine(o.machine);
  Engine engine(machine.view(), {.execution = o.async ? Execution::Asynchronous : Execution::RoundSynchronous});
  const ArrayId a = engine.add_array({"a", Space::Global, n});
  const ArrayId b = engine.add_array({"b", Space::Global, n});
  const ArrayId tile = engine.add_array({"tile", Space::Shared, T});
  auto input = engine.global(a);
  std::iota(input.begin(), input.end(), Word{1000});  // a[i] = 1000 + i, so every value is its own

  Kernel k{.name = "strided-gather",
           .blocks = static_cast<std::uint64_t>(o.blocks),
           .threads_per_block = static_cast<std::uint32_t>(T),
           .steps = {}};
  k.steps.emplace_back(Access{"load", Op::Read, a, 0, [](const Thread& t) { return t.id(); }});
  k.steps.emplace_back(Access{"stage", Op::Write, tile, 0, [](const Thread& t) { return Address{t.local()}; }});
  k.steps.emplace_back(BlockBarrier{});
  k.steps.emplace_back(Access{"gather", Op::Read, tile, 0, [=](const Thread& t) { return t.local() * stride % T; }});
  k.steps.emplace_back(Access{"store", Op::Write, b, 0, [](const Thread& t) { return t.id(); }});
  engine.launch(k);

  RunReport r;
  r.algorithm = "strided-gather";
  r.family = "example";
  r.paper = "examples/custom_kernel";
  r.machine = o.machine;
  r.parameters.set("stride", o.stride);
  r.parameters.set("blocks", o.blocks);
  r.parameters.set("threads", o.threads);
  r.execution = o.async ? Execution::Asynchronous : Execution::RoundSynchronous;
  r.n = n;
  r.stats = engine.stats();
  const auto out = engine.global(b);
  r.correct = true;
  for (std::uint64_t i = 0; i < n; ++i) r.correct = r.correct && out[i] == input[i / T * T + (i % T) * stride % T];
  if (std::gcd(stride, T) == 1 && !o.async) {
    const auto w = static_cast<std::uint64_t>(o.machine.w);
    const auto k_dmms = static_cast<std::uint64_t>(o.machine.k);
    const auto busiest = (static_cast<std::uint64_t>(o.blocks) + k_dmms - 1) / k_dmms;
    r.predicted_time_units =
        static_cast<TimeUnits>(2 * (n / w + o.machine.L - 1) + 2 * (busiest * T / w + o.machine.l - 1));
  }
  std::cout << (o.json ? mmsim::to_json(r).dump() + "\n" : mmsim::to_text(r));
  return r.correct ? 0 : 1;
}
