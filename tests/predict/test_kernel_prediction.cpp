// A kernel of one's own priced per step (predict/kernel_prediction.h): a tiny kernel worked by hand,
// step by step; the steps and launches adding up to the run's counts and time; the per-round
// counts leaving every count of the run as it was; and the descriptions a GPU cannot run refused.
#include <doctest/doctest.h>

#include <cmath>

#include "io/input_error.h"
#include "kernels/kernel_file.h"
#include "predict/kernel_prediction.h"
#include "predict/simulate.h"
#include "tests/predict/small_gpu.h"

using namespace mmsim;
using namespace mmsim::predict;

namespace {

// A model priced by hand: 1 ms a launch, 0.01 ms a sector, 0.1 ms a shared-memory time unit.
CostModel hand_model() {
  const CostModelSpec spec{"hand",
                           {{"launch_ms", "launches"}, {"sector_ms", "sectors"}, {"tu_ms", "shared_time_units"}}};
  CostModel m = unfitted(spec);
  m.prices[0].ms = 1.0, m.prices[1].ms = 0.01, m.prices[2].ms = 0.1;
  return m;
}

// The small GPU without an L2 or DRAM rows: every sector a DRAM transfer, so each is worked by hand.
GpuProfile bare_gpu() {
  GpuProfile p = small_gpu_profile();
  p.memory.cache_bytes = 0;
  p.memory.dram_row_bytes = 0;
  p.models = {hand_model()};
  return p;
}

// One block of two warps: a coalesced read, a shared write two addresses a bank, a barrier, a
// shared read without conflicts, a global write of stride 4 (two lanes a sector).
const char* kTiny = R"({"arrays": [{"name": "a", "size": 64, "init": "iota"},
                                   {"name": "s", "space": "shared", "size": 64},
                                   {"name": "b", "size": 256}],
  "kernels": [{"name": "tiny", "blocks": 1, "threads_per_block": 64, "steps": [
    {"read": "a", "address": "t", "name": "read a"},
    {"write": "s", "address": "(2 * t) % 64", "name": "write s"},
    "barrier",
    {"read": "s", "address": "63 - local", "name": "read s"},
    {"write": "b", "address": "4 * t", "name": "write b"}]}]})";

}  // namespace

TEST_CASE("a tiny kernel's steps, worked by hand") {
  const GpuProfile profile = bare_gpu();
  const ProgramPrediction p = predict_program(profile, kernels::parse_kernel_file(kTiny, "tiny.json"), "hand", 1);
  REQUIRE(p.kernels.size() == 1);
  const KernelPrediction& k = p.kernels[0];
  REQUIRE(k.steps.size() == 4);
  const StepPrediction &read_a = k.steps[0], &write_s = k.steps[1], &read_s = k.steps[2], &write_b = k.steps[3];
  // read a[t]: each warp's 32 floats are 128 bytes, 4 sectors of one line.
  CHECK(read_a.step == "read a");
  CHECK(read_a.slots == 8);
  CHECK(read_a.congestion == 4);
  CHECK(read_a.requests == 64);
  CHECK(read_a.counts.memory.accesses == 2);
  CHECK(read_a.counts.memory.lines == 2);
  CHECK(read_a.counts.memory.read_sectors == 8);
  CHECK(read_a.counts.memory.dram_reads == 8);
  CHECK(*read_a.sectors_per_request == 4.0);
  CHECK(*read_a.l2_hit_rate == 0.0);
  CHECK(read_a.dram_bytes == 8 * 32);
  CHECK(!read_a.bank_conflicts);
  CHECK(read_a.ms == doctest::Approx(0.08));
  // write s[2t mod 64]: banks 2t mod 32 hold two addresses each, so 2 slots a warp, 1 conflict; both
  // warps on block 0's DMM: 4 slots, 4 time units (l = 1).
  CHECK(write_s.slots == 4);
  CHECK(write_s.congestion == 2);
  CHECK(*write_s.bank_conflicts == 2);
  CHECK(write_s.counts.shared_time_units == 4);
  CHECK(!write_s.sectors_per_request);
  CHECK(!write_s.l2_hit_rate);
  CHECK(write_s.ms == doctest::Approx(0.4));
  // read s[63 - local]: one bank an address: 1 slot a warp.
  CHECK(read_s.slots == 2);
  CHECK(*read_s.bank_conflicts == 0);
  CHECK(read_s.counts.shared_time_units == 2);
  CHECK(read_s.ms == doctest::Approx(0.2));
  // write b[4t]: a warp spans 512 bytes, 16 sectors (two lanes each), 4 lines.
  CHECK(write_b.slots == 32);
  CHECK(write_b.counts.memory.write_sectors == 32);
  CHECK(write_b.counts.memory.lines == 8);
  CHECK(write_b.counts.memory.dram_writes == 32);
  CHECK(*write_b.sectors_per_request == 16.0);
  CHECK(write_b.dram_bytes == 32 * 32);
  CHECK(write_b.ms == doctest::Approx(0.32));
  // The kernel: a launch (1 ms) and its steps, 2 ms in all; each share is of the kernel's time.
  CHECK(k.launch_ms == doctest::Approx(1.0));
  CHECK(k.ms == doctest::Approx(2.0));
  CHECK(p.ms == doctest::Approx(2.0));
  CHECK(read_a.share == doctest::Approx(0.04));
  CHECK(write_s.share == doctest::Approx(0.2));
  CHECK(read_s.share == doctest::Approx(0.1));
  CHECK(write_b.share == doctest::Approx(0.16));
  CHECK(k.counts.launches == 1);
  CHECK(k.counts.shared_time_units == 6);
  CHECK(k.counts.memory.sectors() == 40);
}

TEST_CASE("with an L2, the warm-up leaves the tiny kernel's data in it") {
  GpuProfile profile = small_gpu_profile();
  profile.models = {hand_model()};
  const ProgramPrediction p = predict_program(profile, kernels::parse_kernel_file(kTiny, "tiny.json"), "hand", 1);
  const KernelPrediction& k = p.kernels[0];
  CHECK(*k.steps[0].l2_hit_rate == 1.0);
  CHECK(k.steps[0].dram_bytes == 0);
  CHECK(*k.steps[3].l2_hit_rate == 1.0);
  CHECK(k.steps[3].dram_bytes == 0);
}

TEST_CASE("the steps and launches add up to the run's counts, which per-round counting leaves as they were") {
  // Two kernels, the second gathering through what the first wrote: scattered sectors, an L2 too
  // small for the data, DRAM rows.
  const char* two = R"({"arrays": [{"name": "idx", "size": 65536, "init": {"random_below": 65536, "seed": 9}},
                                   {"name": "a", "size": 65536, "init": "iota"}, {"name": "b", "size": 65536}],
    "kernels": [{"name": "copy", "blocks": 256, "threads_per_block": 256, "steps": [
                   {"read": "a", "address": "t"}, {"write": "b", "address": "t"}]},
                {"name": "gather", "blocks": 256, "threads_per_block": 256, "registers": 2, "steps": [
                   {"read": "idx", "address": "t", "reg": 0}, {"read": "b", "address": "r0", "reg": 1},
                   {"write": "a", "address": "t", "reg": 1}]}]})";
  GpuProfile profile = small_gpu_profile();
  profile.models = {hand_model()};
  const kernels::ProgramSpec spec = kernels::parse_kernel_file(two, "two.json");
  const ProgramPrediction p = predict_program(profile, spec, "hand", 2);
  REQUIRE(p.kernels.size() == 2);
  RunCounts sum;
  double ms = 0;
  for (const KernelPrediction& k : p.kernels) {
    double steps_ms = k.launch_ms;
    for (const StepPrediction& s : k.steps) {
      steps_ms += s.ms;
      sum.memory += s.counts.memory;
      sum.shared_time_units += s.counts.shared_time_units;
    }
    sum.launches += k.counts.launches;
    CHECK(k.ms == doctest::Approx(steps_ms));
    ms += k.ms;
  }
  CHECK(p.ms == doctest::Approx(ms));
  for (const CountField& f : count_fields()) CHECK_MESSAGE(f.of(sum) == f.of(p.counts), f.name);
  CHECK(p.counts.memory.dram_reads > 0);
  CHECK(p.counts.memory.activations > 0);
  // count_warm, which keeps no rounds, counts the same.
  const kernels::ProgramSpec on = on_profile_machine(profile, spec);
  const RunCounts plain = count_warm(
      profile, 4, [&](const EngineOptions& o) { return kernels::run_program(on, o).stats; }, 2);
  for (const CountField& f : count_fields()) CHECK_MESSAGE(f.of(plain) == f.of(p.counts), f.name);
}

TEST_CASE("a model that prices a run's first launch apart charges it to the first kernel alone") {
  // hand, plus 0.5 ms for the run: three kernels of one program are one run.
  const CostModelSpec spec{
      "hand-runs",
      {{"launch_ms", "launches"}, {"sector_ms", "sectors"}, {"tu_ms", "shared_time_units"}, {"run_ms", "runs"}}};
  CostModel runs = unfitted(spec);
  runs.prices[0].ms = 1.0, runs.prices[1].ms = 0.01, runs.prices[2].ms = 0.1, runs.prices[3].ms = 0.5;
  GpuProfile profile = bare_gpu();
  profile.models = {hand_model(), runs};
  const char* three = R"({"arrays": [{"name": "a", "size": 64, "init": "iota"}, {"name": "b", "size": 64}],
    "kernels": [{"name": "k1", "blocks": 1, "threads_per_block": 64, "steps": [{"read": "a", "address": "t"}]},
                {"name": "k2", "blocks": 1, "threads_per_block": 64, "steps": [{"write": "b", "address": "t"}]},
                {"name": "k3", "blocks": 1, "threads_per_block": 32, "steps": [{"read": "b", "address": "t"}]}]})";
  const kernels::ProgramSpec program = kernels::parse_kernel_file(three, "three.json");
  const ProgramPrediction plain = predict_program(profile, program, "hand", 1);
  const ProgramPrediction p = predict_program(profile, program, "hand-runs", 1);
  REQUIRE(p.kernels.size() == 3);
  CHECK(p.ms == doctest::Approx(plain.ms + 0.5));
  CHECK(p.kernels[0].launch_ms == doctest::Approx(1.5));
  CHECK(p.kernels[1].launch_ms == doctest::Approx(1.0));
  CHECK(p.kernels[2].launch_ms == doctest::Approx(1.0));
  double ms = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(p.kernels[i].ms == doctest::Approx(plain.kernels[i].ms + (i == 0 ? 0.5 : 0.0)));
    ms += p.kernels[i].ms;
  }
  CHECK(p.ms == doctest::Approx(ms));
  // The program's counts priced whole (as predicted_ms_by_model does): the run's price once.
  CHECK(predicted_ms(runs, p.counts) == doctest::Approx(plain.ms + 0.5));
}

TEST_CASE("a description the profile's GPU cannot run is refused, naming the file, the kernel and the rule") {
  GpuProfile profile = small_gpu_profile();
  profile.models = {hand_model()};
  const auto refused = [&](const std::string& text, const std::string& words) {
    const kernels::ProgramSpec spec = kernels::parse_kernel_file(text, "bad.json");
    try {
      predict_program(profile, spec, "hand", 1);
      FAIL("not refused: " << text);
    } catch (const InputError& e) {
      const std::string what = e.what();
      CHECK_MESSAGE(what.find("bad.json: ") == 0, what);
      CHECK_MESSAGE(what.find(words) != std::string::npos, what);
      CHECK_MESSAGE(what.find('\n') == std::string::npos, what);
    }
  };
  refused(R"({"machine": {"model": "umm"}, "arrays": [{"name": "a", "size": 64}],
             "kernels": [{"name": "k", "steps": [{"read": "a", "address": "t"}]}]})",
          "machine: a GPU prediction runs on the HMM");
  refused(R"({"machine": {"w": 16}, "arrays": [{"name": "a", "size": 64}],
             "kernels": [{"name": "k", "threads_per_block": 32, "steps": [{"read": "a", "address": "t"}]}]})",
          "w = 16, but the profile's GPU runs warps of w = 32");
  refused(R"({"arrays": [{"name": "a", "size": 4096}],
             "kernels": [{"name": "big", "threads_per_block": 2048, "steps": [{"read": "a", "address": "t"}]}]})",
          "kernel 'big': threads_per_block = 2048, more than the 1024 threads of a CUDA block");
  refused(R"({"arrays": [{"name": "s", "space": "shared", "size": 60000}],
             "kernels": [{"name": "k", "steps": [{"read": "s", "address": "t"}]}]})",
          "arrays: the shared arrays take 240000 bytes a block");
  refused(R"({"arrays": [{"name": "a", "size": 64}],
             "kernels": [{"name": "k", "threads_per_block": 128, "steps": [{"read": "a", "address": "t", "name": "past"}]}]})",
          "kernel k step 0 (past): thread 64 addresses 64 outside a[64]");
  const kernels::ProgramSpec fine = kernels::parse_kernel_file(kTiny, "tiny.json");
  CHECK_THROWS_WITH_AS(predict_program(profile, fine, "nope", 1), doctest::Contains("no cost model nope"), InputError);
}

namespace {

// An instruction term priced by hand: a warp alone 2 cycles an instruction, 20 a shared access, 3 an
// extra slot, added up; an SM of warps the larger of 0.5 an instruction and 1 an access or slot.
InstructionTerm hand_term() {
  InstructionTerm t;
  t.costs.lone = {.form = CostForm::Additive, .instruction = 2, .access = 20, .extra_slot = 3};
  t.costs.many = {.form = CostForm::Bound, .instruction = 0.5, .access = 1, .extra_slot = 1};
  t.fitted_on = "hand-made costs";
  return t;
}

// The tiny kernel with 50 instructions declared on its first and last steps.
std::string tiny_declared() {
  std::string text = kTiny;
  for (const char* step : {"\"name\": \"read a\"", "\"name\": \"write b\""})
    text.replace(text.find(step), std::string(step).size(), std::string(step) + ", \"instructions\": 50");
  return text;
}

}  // namespace

TEST_CASE("declared instructions, worked by hand: the kernel takes the larger of its memory and its instructions") {
  GpuProfile profile = bare_gpu();
  profile.instruction_term = hand_term();
  const kernels::ProgramSpec spec = kernels::parse_kernel_file(tiny_declared(), "tiny.json");
  REQUIRE(spec.kernels[0].steps[0].instructions == 50);
  // Each warp: 50 + 50 declared and one for each of its 4 memory steps, 104; 2 shared accesses; the
  // write to s took 4 slots for 2 warp accesses, the read 2 for 2: 1 extra slot a warp. Two warps
  // over 4 SMs: 1 on the busiest. Alone: 2 x 104 + 20 x 2 + 3 x 1 = 251 cycles; the SM's one warp:
  // max(0.5 x 104, 2 + 1) = 52. So 251 cycles.
  profile.gpu.sm_clock_khz = 1000;  // 0.251 ms: below the steps' 1 ms, which bind
  ProgramPrediction p = predict_program(profile, spec, "hand", 1);
  const KernelPrediction* k = &p.kernels[0];
  CHECK(p.instructions_priced);
  CHECK(k->warp_instructions == 104);
  CHECK(k->instruction_ms == doctest::Approx(0.251));
  CHECK(k->memory_ms == doctest::Approx(1.0));
  CHECK(k->ms == doctest::Approx(2.0));
  CHECK(p.ms == doctest::Approx(2.0));
  CHECK(p.instructions.find("hand-made costs") != std::string::npos);
  profile.gpu.sm_clock_khz = 100;  // 2.51 ms: the instructions bind
  p = predict_program(profile, spec, "hand", 1);
  k = &p.kernels[0];
  CHECK(k->instruction_ms == doctest::Approx(2.51));
  CHECK(k->ms == doctest::Approx(3.51));
  CHECK(p.ms == doctest::Approx(3.51));
  CHECK(k->steps[1].share == doctest::Approx(0.4 / 3.51));  // a step's share is of the kernel's time
  const report::Table t = kernels_table(p);
  CHECK(std::find(t.columns.begin(), t.columns.end(), "instruction_ms") != t.columns.end());
  // Many warps an SM: 512 blocks of 64 threads on 4 SMs, 256 warps on each, bound by their issue.
  std::string many = tiny_declared();
  many.replace(many.find("\"blocks\": 1"), 11, "\"blocks\": 512");
  many.replace(many.find("\"size\": 64, \"init\""), 10, "\"size\": 32768");
  many.replace(many.find("\"size\": 256}"), 11, "\"size\": 131072");
  p = predict_program(profile, kernels::parse_kernel_file(many, "many.json"), "hand", 1);
  CHECK(p.kernels[0].instruction_ms == doctest::Approx(256 * 0.5 * 104 / 100.0));
}

TEST_CASE("declared instructions without a term, or none declared, leave the prediction as it was") {
  GpuProfile profile = bare_gpu();
  const kernels::ProgramSpec declared = kernels::parse_kernel_file(tiny_declared(), "tiny.json");
  const ProgramPrediction without = predict_program(profile, declared, "hand", 1);
  CHECK(!without.instructions_priced);
  CHECK(without.instructions.find("no instruction term") != std::string::npos);
  CHECK(without.ms == doctest::Approx(2.0));
  profile.instruction_term = hand_term();
  profile.gpu.sm_clock_khz = 1;
  const ProgramPrediction none = predict_program(profile, kernels::parse_kernel_file(kTiny, "tiny.json"), "hand", 1);
  CHECK(!none.instructions_priced);
  CHECK(none.instructions.empty());
  CHECK(none.ms == doctest::Approx(2.0));
  const report::Table t = kernels_table(none);
  CHECK(std::find(t.columns.begin(), t.columns.end(), "instruction_ms") == t.columns.end());
}

TEST_CASE("a kernel's interval: its model's factor, widened to the instruction term's where that prices it") {
  GpuProfile profile = bare_gpu();
  const kernels::ProgramSpec spec = kernels::parse_kernel_file(tiny_declared(), "tiny.json");
  // Without a cross-validation of the model, no interval.
  ProgramPrediction p = predict_program(profile, spec, "hand", 1);
  CHECK(p.interval_high_ms == 0);
  CHECK(prediction_json(p).dump().find("\"interval_ms\": null") != std::string::npos);
  HeldOutError held;
  held.model = "hand";
  held.interval_factor = 1.5;
  profile.choice.models = {held};
  profile.choice.chosen = "hand";
  p = predict_program(profile, spec, "hand", 1);
  CHECK(p.kernels[0].interval_factor == 1.5);
  CHECK(p.interval_low_ms == doctest::Approx(2.0 / 1.5));
  CHECK(p.interval_high_ms == doctest::Approx(3.0));
  // The term's settings' factors, the larger of them 2, widen it; the instructions bind (3.51 ms).
  profile.instruction_term = hand_term();
  profile.instruction_term->costs.lone.interval_factor = 2;
  profile.instruction_term->costs.many.interval_factor = 1.2;
  profile.gpu.sm_clock_khz = 100;
  p = predict_program(profile, spec, "hand", 1);
  CHECK(p.kernels[0].interval_factor == 2);
  CHECK(p.interval_low_ms == doctest::Approx(3.51 / 2));
  CHECK(p.interval_high_ms == doctest::Approx(3.51 * 2));
}
