// The instruction microbenchmarks' definitions and the instruction term fitted on them: congestion
// by construction, the checked outputs by hand, and the fit recovering known costs.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "models/congestion.h"
#include "predict/instruction_bench.h"
#include "predict/instruction_cost.h"

using namespace mmsim;
using namespace mmsim::predict;

TEST_CASE("instruction benches: each lane's start word gives every warp access its congestion") {
  for (const std::uint32_t c : {1u, 2u, 4u, 8u, 16u, 32u}) {
    std::array<Address, 32> warp{};
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      warp[lane] = instruction_start_word(lane, c);
      CHECK(warp[lane] < kInstructionSharedWords);
    }
    CHECK(congestion(warp, 32) == static_cast<int>(c));
    const SharedSteps s = simulated_shared_steps({InstructionKind::SharedChase, c, 100, false});
    CHECK(s.steps == 100);
    CHECK(s.extra_slots == 100.0 * (c - 1));
  }
  CHECK(simulated_shared_steps({InstructionKind::AluParallel, 1, 100, true}).steps == 0);
  // Branchy's branch splits the warp in two halves at every congestion: from y = 1 a lane that takes
  // it makes (3 + a) ^ ((3 + a) >> 7), one that does not (1 ^ a) * 5.
  for (const std::uint32_t c : {1u, 2u, 8u, 32u}) {
    int taken = 0;
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      const std::uint32_t a = instruction_start_word(lane, c), t = 3u + a;
      taken += instruction_branch_step(1, a, lane) == (t ^ (t >> 7)) ? 1 : 0;
    }
    CHECK(taken == 16);
  }
}

TEST_CASE("instruction benches: outputs worked by hand") {
  // alu-chain, one iteration from x = 0: 0x7F4A7C15, xor its >> 13 (0x7F498646), times 0x85EBCA77.
  CHECK(instruction_reference({InstructionKind::AluChain, 1, 1, false}, 0) == 0xCF62A68Au);
  // shared-chase: s[j] = j, so the chase stays on its start word.
  CHECK(instruction_reference({InstructionKind::SharedChase, 8, 50, false}, 9) == instruction_start_word(9, 8));
  CHECK(instruction_start_word(9, 8) == 33u);  // row 9 mod 8 = 1, bank 9 / 8 = 1
  // shared-stream: 7 loads of word 33.
  CHECK(instruction_reference({InstructionKind::SharedStream, 8, 7, false}, 9) == 7u * 33u);
  // branchy, two iterations, congestion 1: lane 1 (word 1) takes the branch, y: 1 -> 4 -> 13, then
  // xor the word: 12; lane 2 (word 2) too: 2 -> 8 -> 26, xor 2: 24.
  CHECK(instruction_reference({InstructionKind::Branchy, 1, 2, false}, 1) == 12u);
  CHECK(instruction_reference({InstructionKind::Branchy, 1, 2, false}, 2) == 24u);
  // alu-parallel: the xor of four chains, one step each from lane .. lane + 3.
  const std::uint32_t four =
      instruction_alu_step(5) ^ instruction_alu_step(6) ^ instruction_alu_step(7) ^ instruction_alu_step(8);
  CHECK(instruction_reference({InstructionKind::AluParallel, 1, 1, false}, 5) == four);
}

namespace {

// Samples made by known costs: lone a = 2, b = 20, c = 3; many p = 0.25, q = 0.5, r = 1.
std::vector<InstructionSample> made_samples() {
  std::vector<InstructionSample> out;
  for (const bool many : {false, true})
    for (const InstructionBench& b : instruction_benches()) {
      if (b.many != many) continue;
      InstructionSample s;
      s.bench = b.name();
      s.kind = to_string(b.kind);
      s.many = many;
      const SharedSteps sim = simulated_shared_steps(b);
      s.steps = sim.steps;
      s.extra_slots = sim.extra_slots;
      // Instructions per iteration that differ by kind, so that no term is a multiple of another.
      s.warp_instructions = b.iterations * (3.0 + static_cast<double>(b.kind) * 2 + (b.congestion % 3));
      s.cycles = many ? 32 * (0.25 * s.warp_instructions + 0.5 * s.steps + 1 * s.extra_slots)
                      : 2 * s.warp_instructions + 20 * s.steps + 3 * s.extra_slots;
      out.push_back(s);
    }
  return out;
}

}  // namespace

TEST_CASE("stream benches: outputs by hand, and the shared words a permutation of the given congestion") {
  // Horner's rule over the coefficients 0, 1, 2 at x = 3: ((0 * 3 + 0) * 3 + 1) * 3 + 2 = 5.
  CHECK(stream_output(3, 3) == 5);
  CHECK(stream_output(7, 0) == 0);
  CHECK(stream_input(4096 + 5) == 5);
  for (const std::uint32_t stride : {1u, 8u}) {
    std::array<int, kStreamThreads> seen{};
    for (std::uint32_t local = 0; local < kStreamThreads; ++local) ++seen[stream_shared_word(local, stride)];
    CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
    for (std::uint32_t warp = 0; warp < kStreamThreads / 32; ++warp) {
      std::array<Address, 32> words{};
      for (std::uint32_t lane = 0; lane < 32; ++lane) words[lane] = stream_shared_word(warp * 32 + lane, stride);
      CHECK(congestion(words, 32) == static_cast<int>(stride));
    }
  }
  // Stride 8: thread 1 of block 2 takes word 8 of its block; without a shared step, its own.
  const StreamBench shared{.steps = 4, .log2_n = 10, .shared_stride = 8};
  CHECK(stream_source(shared, 2 * kStreamThreads + 1) == 2 * kStreamThreads + 8);
  CHECK(stream_source(StreamBench{.steps = 4, .log2_n = 10}, 517) == 517);
  CHECK(shared.name() == "stream-s4-n10-shared8");
  const auto benches = stream_benches();
  CHECK(benches.size() == 24);
  CHECK(std::count_if(benches.begin(), benches.end(), [](const StreamBench& b) { return b.shared_stride; }) == 8);
}

TEST_CASE("instruction costs: the fit recovers the costs that made the samples, and their form") {
  const InstructionCosts c = fit_instruction_costs(made_samples());
  CHECK(c.lone.form == CostForm::Additive);
  CHECK(c.lone.instruction == doctest::Approx(2));
  CHECK(c.lone.access == doctest::Approx(20));
  CHECK(c.lone.extra_slot == doctest::Approx(3));
  CHECK(c.lone.samples == 10);  // shared-stream's four lone samples are outside the fit
  CHECK(c.lone_outside_samples == 4);
  CHECK(c.lone_outside == doctest::Approx(0).epsilon(1e-9));  // made by the same costs here
  CHECK(c.lone.fitted == doctest::Approx(0).epsilon(1e-9));
  CHECK(c.lone.held_out == doctest::Approx(0).epsilon(1e-6));
  CHECK(c.lone.held_out_other_form > 0.01);  // the bound form cannot make an additive warp
  CHECK(c.many.form == CostForm::Additive);
  CHECK(c.many.instruction == doctest::Approx(0.25));
  CHECK(c.many.samples == 14);
  // A warp alone: 2 * 100 + 20 * 10 + 3 * 5 = 415; an SM: the larger of that and its warps'
  // 35 W (25 + 5 + 5 a warp).
  CHECK(lone_cycles(c, 100, 10, 5) == doctest::Approx(415));
  CHECK(sm_cycles(c, 100, 10, 5, 1) == doctest::Approx(415));
  CHECK(sm_cycles(c, 100, 10, 5, 32) == doctest::Approx(35 * 32));
  const std::string text = describe(c);
  CHECK(text.find("a warp alone additive, 2 cycles per warp instruction, 20 per shared access, 3 per extra slot "
                  "(10 microbenchmarks") == 0);
  CHECK(text.find("; 32 warps per SM additive, 0.25 cycles per warp instruction") != std::string::npos);
}

TEST_CASE("instruction costs: an SM bound by its busier pipe is fitted in the bound form") {
  std::vector<InstructionSample> s = made_samples();
  for (InstructionSample& x : s)
    if (x.many) x.cycles = 32 * std::max(0.25 * x.warp_instructions, 0.5 * x.steps + 1 * x.extra_slots);
  const InstructionCosts c = fit_instruction_costs(s);
  CHECK(c.many.form == CostForm::Bound);
  CHECK(c.many.instruction == doctest::Approx(0.25));
  CHECK(c.many.access == doctest::Approx(0.5));
  CHECK(c.many.extra_slot == doctest::Approx(1));
  CHECK(c.many.held_out == doctest::Approx(0).epsilon(1e-6));
  CHECK(c.many.held_out_other_form > 0.01);
  CHECK(c.many.cycles(100, 10, 5, 2) == doctest::Approx(2 * std::max(25.0, 10.0)));
  CHECK(c.lone.form == CostForm::Additive);  // the lone samples are as they were
}

TEST_CASE("instruction costs: a kind the fit did not see is predicted from the others") {
  // The lone alu-parallel samples made at half the instruction cost: left out, each is predicted at
  // the others' cost, twice its cycles.
  std::vector<InstructionSample> s = made_samples();
  for (InstructionSample& x : s)
    if (!x.many && x.kind == "alu-parallel") x.cycles = x.warp_instructions;
  const InstructionCosts c = fit_instruction_costs(s);
  CHECK(c.lone.worst_held_out == doctest::Approx(2).epsilon(0.01));
  CHECK(c.lone.fitted > 0);
}

TEST_CASE("instruction costs: too few samples or a non-positive time is refused") {
  std::vector<InstructionSample> s = made_samples();
  std::vector<InstructionSample> two(s.begin(), s.begin() + 2);
  two.insert(two.end(), s.end() - 5, s.end());
  CHECK_THROWS_AS(fit_instruction_costs(two), std::invalid_argument);
  s[0].cycles = 0;
  CHECK_THROWS_AS(fit_instruction_costs(s), std::invalid_argument);
}
