// Traced runs without a GPU (kernels/trace_file.h): trace files made on the host as trace.cuh
// writes them (tests/trace_bytes.h), read, turned into a description with explicit addresses and
// replayed with exact per-line counts; the same kernels written with address expressions give the
// same rounds; and every malformed field is refused in one line naming the record and the rule.
#include <doctest/doctest.h>

#include <string>

#include "io/input_error.h"
#include "kernels/trace_file.h"
#include "kernels/trace_report.h"
#include "trace_bytes.h"

namespace {

using mmsim::InputError;
using mmsim::RoundStats;
using mmsim::test::TraceBytes;
namespace k = mmsim::kernels;

constexpr int kN = 64, kTile = 32, kRows = 8;

k::ArraySpec array_spec(const std::string& name, mmsim::Space space, std::uint64_t size) {
  k::ArraySpec a;
  a.name = name;
  a.space = space;
  a.size = size;
  return a;
}

k::KernelSpec kernel_spec(const std::string& name, std::uint64_t blocks, std::uint32_t threads_per_block) {
  k::KernelSpec kern;
  kern.name = name;
  kern.blocks = blocks;
  kern.threads_per_block = threads_per_block;
  kern.registers = 2;
  return kern;
}

// The tiled transpose of trace.cuh's example (examples/traced/transpose_tiled.cu) on a 64 x 64
// matrix, grid 2 x 2 of blocks of 32 x 8 threads, as its device records would be: line 10 reads
// `in` and writes `tile` four times, line 11 is the barrier, line 14 reads `tile` and writes `out`.
std::string tiled_trace(int width) {
  TraceBytes t;
  t.files = {"/src/examples/traced/transpose_tiled.cu"};
  const int in = t.array("in", false, kN * kN), out = t.array("out", false, kN * kN);
  const int tile = t.array("tile", true, static_cast<std::uint64_t>(kTile * width));
  const int kern = t.kernel("transpose_tiled", 4, kTile * kRows);
  for (std::uint32_t b = 0; b < 4; ++b)
    for (std::uint16_t w = 0; w < kRows; ++w) {
      const int bx = static_cast<int>(b % 2), by = static_cast<int>(b / 2), ty = w;
      for (int j = 0; j < kTile; j += kRows) {
        t.access(kern, b, w, 10, TraceBytes::Read, in, 4,
                 TraceBytes::affine_lanes((by * 32 + ty + j) * kN + bx * 32, 1));
        t.access(kern, b, w, 10, TraceBytes::Write, tile, 4, TraceBytes::affine_lanes((ty + j) * width, 1));
      }
      t.barrier(kern, b, w, 11);
      for (int j = 0; j < kTile; j += kRows) {
        t.access(kern, b, w, 14, TraceBytes::Read, tile, 4, TraceBytes::affine_lanes(ty + j, width));
        t.access(kern, b, w, 14, TraceBytes::Write, out, 4,
                 TraceBytes::affine_lanes((bx * 32 + ty + j) * kN + by * 32, 1));
      }
    }
  return t.bytes();
}

// The same transpose with address expressions, as a kernel file says it.
k::ProgramSpec tiled_expressions(int width, const mmsim::MachineParams& machine) {
  k::ProgramSpec p;
  p.source = "expressions";
  p.machine = machine;
  p.arrays = {array_spec("in", mmsim::Space::Global, kN * kN), array_spec("out", mmsim::Space::Global, kN * kN),
              array_spec("tile", mmsim::Space::Shared, static_cast<std::uint64_t>(kTile * width))};
  k::KernelSpec kern = kernel_spec("transpose_tiled", 4, kTile * kRows);
  const std::string W = std::to_string(width), tx = "(local % 32)", ty = "(local / 32)", bx = "(block % 2)",
                    by = "(block / 2)";
  for (int j = 0; j < kTile; j += kRows) {
    const std::string J = std::to_string(j);
    kern.steps.push_back({.kind = k::StepKind::Read,
                          .array = "in",
                          .address = "(" + by + "*32 + " + ty + " + " + J + ")*64 + " + bx + "*32 + " + tx});
    kern.steps.push_back(
        {.kind = k::StepKind::Write, .array = "tile", .address = "(" + ty + " + " + J + ")*" + W + " + " + tx});
  }
  kern.steps.push_back({.kind = k::StepKind::Barrier});
  for (int j = 0; j < kTile; j += kRows) {
    const std::string J = std::to_string(j);
    kern.steps.push_back(
        {.kind = k::StepKind::Read, .array = "tile", .address = tx + "*" + W + " + " + ty + " + " + J});
    kern.steps.push_back({.kind = k::StepKind::Write,
                          .array = "out",
                          .address = "(" + bx + "*32 + " + ty + " + " + J + ")*64 + " + by + "*32 + " + tx});
  }
  p.kernels.push_back(kern);
  return p;
}

void same_rounds(const mmsim::RunStats& a, const mmsim::RunStats& b) {
  REQUIRE(a.rounds.size() == b.rounds.size());
  for (std::size_t r = 0; r < a.rounds.size(); ++r) {
    const RoundStats &x = a.rounds[r], &y = b.rounds[r];
    CAPTURE(r);
    CHECK(x.array == y.array);
    CHECK(x.op == y.op);
    CHECK(x.requests == y.requests);
    CHECK(x.warps == y.warps);
    CHECK(x.slots == y.slots);
    CHECK(x.max_congestion == y.max_congestion);
    CHECK(x.bank_conflicts == y.bank_conflicts);
    CHECK(x.time_units == y.time_units);
  }
  CHECK(a.time_units == b.time_units);
}

const k::LineStats& line(const std::vector<k::LineStats>& lines, const std::string& name, const std::string& array) {
  for (const auto& l : lines)
    if (l.line == name && l.array == array) return l;
  FAIL("no line " << name << " " << array);
  return lines.front();
}

std::string refusal(const std::string& bytes) {
  try {
    const k::Trace t = k::parse_trace(bytes, "t.mmtrace");
    (void)k::trace_program(t, k::trace_machine(t));
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("a traced tiled transpose replays with the bank conflicts of its unpadded tile and none padded") {
  for (const int width : {32, 33}) {
    CAPTURE(width);
    const k::Trace trace = k::parse_trace(tiled_trace(width), "tiled.mmtrace");
    CHECK(trace.records.size() == 4 * 8 * (4 * 2 + 1 + 4 * 2));
    const k::ProgramSpec spec = k::trace_program(trace, k::trace_machine(trace));
    REQUIRE(spec.kernels.size() == 1);
    const auto& steps = spec.kernels[0].steps;
    REQUIRE(steps.size() == 17);  // four (read in, write tile), the barrier, four (read tile, write out)
    CHECK(steps[0].name == "transpose_tiled.cu:10");
    CHECK(steps[0].array == "in");
    CHECK(steps[1].array == "tile");
    CHECK(steps[8].kind == k::StepKind::Barrier);
    CHECK(steps[9].name == "transpose_tiled.cu:14");
    const k::ProgramRun run = k::run_program(spec);
    const auto lines = k::line_stats(run.stats);
    REQUIRE(lines.size() == 4);
    const auto& column = line(lines, "transpose_tiled.cu:14", "tile");
    CHECK(column.steps == 4);
    CHECK(column.warps == 4 * 8 * 4);
    // Unpadded, a warp's 32 column reads fall in one bank: 32 slots, 31 conflicts (DMM congestion).
    CHECK(column.slots == (width == 32 ? 32u : 1u) * 128);
    CHECK(column.bank_conflicts == (width == 32 ? 31u : 0u) * 128);
    CHECK(column.max_congestion == (width == 32 ? 32 : 1));
    const auto& row = line(lines, "transpose_tiled.cu:10", "tile");
    CHECK(row.slots == 128);
    CHECK(row.bank_conflicts == 0);
    CHECK(line(lines, "transpose_tiled.cu:10", "in").requests == 4 * 256 * 4);
    // The same kernel with address expressions: the same rounds, count for count.
    same_rounds(run.stats, k::run_program(tiled_expressions(width, spec.machine)).stats);
  }
}

TEST_CASE("a traced shared histogram with atomics replays as its expression form") {
  TraceBytes t;
  const int keys = t.array("keys", false, 64), counts = t.array("counts", true, 8);
  const int kern = t.kernel("histogram", 1, 64);
  std::vector<std::int64_t> key(64);
  for (int i = 0; i < 64; ++i) key[static_cast<std::size_t>(i)] = (i * 5 + i / 7) % 8;
  for (std::uint16_t w = 0; w < 2; ++w) {
    t.access(kern, 0, w, 5, TraceBytes::Read, keys, 4, TraceBytes::affine_lanes(w * 32, 1));
    TraceBytes::Lanes lanes;
    for (int l = 0; l < 32; ++l) lanes[static_cast<std::size_t>(l)] = key[static_cast<std::size_t>(w * 32 + l)];
    t.access(kern, 0, w, 6, TraceBytes::AtomicAdd, counts, 4, lanes);
  }
  const k::Trace trace = k::parse_trace(t.bytes(), "hist.mmtrace");
  CHECK_FALSE(trace.records[1].affine);
  const k::ProgramSpec spec = k::trace_program(trace, k::trace_machine(trace));
  REQUIRE(spec.kernels[0].steps.size() == 2);
  CHECK(spec.kernels[0].steps[1].atomic == mmsim::AtomicOp::Add);
  const k::ProgramRun run = k::run_program(spec);

  k::ProgramSpec e;
  e.source = "expressions";
  e.machine = spec.machine;
  k::ArraySpec ka = array_spec("keys", mmsim::Space::Global, 64);
  ka.init = k::ArrayInit::Values;
  for (auto v : key) ka.values.push_back(static_cast<mmsim::Word>(v));
  e.arrays = {ka, array_spec("counts", mmsim::Space::Shared, 8)};
  k::KernelSpec ek = kernel_spec("histogram", 1, 64);
  ek.steps.push_back({.kind = k::StepKind::Set, .value = "1", .reg = 1});
  ek.steps.push_back({.kind = k::StepKind::Read, .array = "keys", .address = "t"});
  ek.steps.push_back(
      {.kind = k::StepKind::Atomic, .array = "counts", .address = "r0", .reg = 1, .atomic = mmsim::AtomicOp::Add});
  e.kernels = {ek};
  same_rounds(run.stats, k::run_program(e).stats);
}

TEST_CASE("steps keep every warp's order, one per line and occurrence, and partial masks stay partial") {
  TraceBytes t;
  const int a = t.array("a", false, 256);
  const int kern = t.kernel("k", 1, 64);
  // Warp 0 reads at line 10 then twice at line 20 (a loop); warp 1, half active, only at line 20.
  t.access(kern, 0, 0, 10, TraceBytes::Read, a, 4, TraceBytes::affine_lanes(0, 1));
  t.access(kern, 0, 0, 20, TraceBytes::Read, a, 4, TraceBytes::affine_lanes(32, 1));
  t.access(kern, 0, 0, 20, TraceBytes::Read, a, 4, TraceBytes::affine_lanes(64, 1));
  t.access(kern, 0, 1, 20, TraceBytes::Read, a, 4, TraceBytes::affine_lanes(128, 2, 0x0000FFFFu));
  const k::Trace trace = k::parse_trace(t.bytes(), "order.mmtrace");
  const k::ProgramSpec spec = k::trace_program(trace, k::trace_machine(trace));
  const auto& steps = spec.kernels[0].steps;
  REQUIRE(steps.size() == 3);
  CHECK(steps[0].name == "kernel.cu:10");
  CHECK(steps[1].name == "kernel.cu:20");
  CHECK(steps[2].name == "kernel.cu:20");
  CHECK(steps[1].addresses->index[32] == 128);
  CHECK(steps[1].addresses->index[47] == 128 + 30);
  CHECK(steps[1].addresses->index[48] == k::ExplicitAddresses::kInactive);
  CHECK(steps[2].addresses->index[32] == k::ExplicitAddresses::kInactive);
  const auto lines = k::line_stats(k::run_program(spec).stats);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].steps == 2);
  CHECK(lines[1].requests == 32 + 16 + 32);
  CHECK(lines[1].warps == 3);
}

TEST_CASE("a malformed, inconsistent or truncated trace is refused in one line naming the record and the rule") {
  const auto base = [] {
    TraceBytes t;
    t.array("a", false, 64);
    t.kernel("k", 2, 64);
    return t;
  };
  {
    TraceBytes t = base();
    t.access(0, 0, 0, 7, TraceBytes::Read, 0, 4, TraceBytes::affine_lanes(40, 1));
    CHECK(refusal(t.bytes()) == "t.mmtrace: record 0: lane 24 addresses 64 outside 'a'[64]");
  }
  {
    TraceBytes t = base();
    TraceBytes::Lanes l = TraceBytes::affine_lanes(0, 1);
    l[3] = 99;
    t.access(0, 1, 1, 7, TraceBytes::Read, 0, 4, l);
    CHECK(refusal(t.bytes()) == "t.mmtrace: record 0: lane 3 addresses 99 outside 'a'[64]");
  }
  {
    TraceBytes t = base();
    t.access(0, 2, 0, 7, TraceBytes::Read, 0, 4, TraceBytes::affine_lanes(0, 1));
    CHECK(refusal(t.bytes()) == "t.mmtrace: record 0: block 2 is past kernel 'k''s 2 blocks");
  }
  {
    TraceBytes t = base();
    t.access(0, 0, 2, 7, TraceBytes::Read, 0, 4, TraceBytes::affine_lanes(0, 1));
    CHECK(refusal(t.bytes()) == "t.mmtrace: record 0: warp 2 is past the 2 warps of a block of kernel 'k'");
  }
  {
    TraceBytes t = base();
    t.access(0, 0, 0, 7, TraceBytes::Read, 0, 8, TraceBytes::affine_lanes(0, 1));
    CHECK(refusal(t.bytes()) == "t.mmtrace: record 0: moves 8 bytes a lane; 'a''s elements are 4 bytes");
  }
  {
    TraceBytes t = base();
    t.dropped = 3;
    t.access(0, 0, 0, 7, TraceBytes::Read, 0, 4, TraceBytes::affine_lanes(0, 1));
    CHECK(refusal(t.bytes()).find("header: the traced run dropped 3 records") != std::string::npos);
  }
  {
    TraceBytes t = base();
    t.access(0, 0, 0, 7, TraceBytes::Read, 0, 4, TraceBytes::affine_lanes(0, 1));
    const std::string good = t.bytes();
    CHECK(refusal(good) == "accepted");
    CHECK(refusal(good.substr(0, good.size() - 1)).find("t.mmtrace: header: says ") == 0);
    CHECK(refusal("MMSIMTRD" + good.substr(8)) == "t.mmtrace: header: not an mmsim trace (it starts without MMSIMTRC)");
    CHECK(refusal(good.substr(0, 20)).find("t.mmtrace: header: the file ends after 20 bytes") == 0);
    std::string bad_op = good;
    bad_op[bad_op.size() - 16 - 32 + 22] = 9;  // the record's op
    CHECK(refusal(bad_op) == "t.mmtrace: record 0: op 9 is not 0..8");
  }
  {
    TraceBytes t = base();
    CHECK(refusal(t.bytes()) == "t.mmtrace: records: none: the traced kernels made no access through a traced array");
  }
}
