// The calibration microbenchmarks as simulator programs (predict/microbench_programs.h): each moves
// the data its specification says, Shared's reads have exactly the congestion they are named for,
// and the output check and the device's short name.
#include <doctest/doctest.h>

#include <limits>

#include "models/machines.h"
#include "predict/gpu_facts.h"
#include "predict/microbench_programs.h"
#include "predict/microbench_reference.h"
#include "sim/engine.h"

using namespace mmsim;
using namespace mmsim::predict;

namespace {

constexpr Word kPoison = std::numeric_limits<Word>::max();

// The calibration set at n = 2^12 (Shared and Empty keep theirs but n): one of each bench.
std::vector<Microbench> small_set() {
  std::vector<Microbench> set;
  for (Microbench m : calibration_set()) {
    if (m.kind != MicrobenchKind::Empty) m.n = std::uint64_t{1} << 12;
    bool seen = false;
    for (const Microbench& s : set) seen = seen || (s.name() == m.name() && s.element_bytes == m.element_bytes);
    if (!seen) set.push_back(m);
  }
  return set;
}

// Runs the bench's program on a small HMM with a filled and b poisoned; returns the engine.
Engine run(const Microbench& m, const Machine& machine) {
  const Program p = microbench_program(m);
  Engine engine(machine.view(), {.threads = 1});
  for (const ArrayDecl& d : p.arrays) {
    const ArrayId id = engine.add_array(d);
    if (d.space != Space::Global) continue;
    const std::span<Word> cells = engine.global(id);
    for (std::uint64_t i = 0; i < cells.size(); ++i)
      cells[i] = d.name == "a" ? static_cast<Word>(microbench_source(i)) : kPoison;
  }
  for (const Kernel& k : p.kernels) engine.launch(k);
  return engine;
}

ArrayId array_named(const Engine& e, const Program& p, const std::string& name) {
  for (std::size_t i = 0; i < p.arrays.size(); ++i)
    if (e.array(static_cast<ArrayId>(i)).name == name) return static_cast<ArrayId>(i);
  FAIL("no array " << name);
  return -1;
}

}  // namespace

TEST_CASE("every microbenchmark's program leaves in b what its specification says") {
  const Machine machine({.model = ModelKind::Hmm, .w = 32, .l = 1, .L = 20, .k = 4});
  const std::vector<Microbench> set = small_set();
  // empty alone and 16 and 256 back to back; per element size 17 global kinds and their cold forms
  // (9 of float, 8 of double); 6 congestions
  CHECK(set.size() == 3 + 2 * 17 + 9 + 8 + 6);
  for (const Microbench& m : set) {
    CAPTURE(m.name());
    CAPTURE(m.element_bytes);
    const Program p = microbench_program(m);
    Engine engine = run(m, machine);
    if (m.kind == MicrobenchKind::Empty) {
      CHECK(p.arrays.empty());
      CHECK(engine.stats().rounds.empty());
      // Its launches, each of one block of 32 threads.
      CHECK(p.kernels.size() == (m.repeats > 1 ? m.repeats : 1));
      CHECK(engine.stats().kernels.size() == p.kernels.size());
      for (const Kernel& k : p.kernels) CHECK(k.threads() == 32);
      continue;
    }
    for (const ArrayDecl& d : p.arrays)
      if (d.space == Space::Global) CHECK(d.element_bytes == m.element_bytes);
    const ArrayId b = array_named(engine, p, "b");
    const std::span<const Word> out = engine.global(b);
    const OutputCheck c = check_output(m, out, kPoison);
    CHECK_MESSAGE(c.wrong == 0, "first wrong cell " << c.first);
    // One thread per element in blocks of 256, the last block's surplus idle.
    CHECK(p.kernels.front().blocks == (microbench_threads(m) + 255) / 256);
    for (const RoundStats& r : engine.stats().rounds)
      if (r.memory == Space::Global) CHECK(r.requests == microbench_threads(m));
  }
}

TEST_CASE("Shared: every warp's read has congestion equal to the stride, every fill write 1") {
  const Machine machine({.model = ModelKind::Hmm, .w = 32, .l = 1, .L = 20, .k = 4});
  for (const Microbench& m : small_set()) {
    if (m.kind != MicrobenchKind::Shared) continue;
    CAPTURE(m.stride);
    const Engine engine = run(m, machine);
    int reads = 0;
    for (const RoundStats& r : engine.stats().rounds) {
      if (r.memory != Space::Shared) continue;
      const int congestion = r.op == Op::Read ? static_cast<int>(m.stride) : 1;
      CHECK(r.max_congestion == congestion);
      CHECK(r.slots == r.warps * static_cast<std::uint64_t>(congestion));  // every warp, not only the worst
      reads += r.op == Op::Read;
    }
    CHECK(reads == static_cast<int>(m.repeats));
  }
}

TEST_CASE("the output check finds a wrong, a missing and a stray cell") {
  const Microbench copy{MicrobenchKind::Copy, 64, 1, 0, 4};
  std::vector<std::uint32_t> b(64);
  for (std::uint32_t i = 0; i < 64; ++i) b[i] = static_cast<std::uint32_t>(microbench_source(i));
  CHECK(check_output(copy, std::span<const std::uint32_t>(b), kPoison).wrong == 0);
  b[5] = kPoison;
  const OutputCheck c = check_output(copy, std::span<const std::uint32_t>(b), kPoison);
  CHECK(c.wrong == 1);
  CHECK(c.first == 5);

  // WriteRandom: a cell no hash lands on must keep the poison; a written cell must hold the value
  // of a thread whose hash lands there.
  const Microbench scatter{MicrobenchKind::WriteRandom, 64, 1, 0, 8};
  std::vector<std::uint64_t> w(64, kPoison);
  std::vector<bool> hit(64);
  for (std::uint32_t i = 0; i < 64; ++i) {
    w[scatter_hash(i) % 64] = microbench_source(i);
    hit[scatter_hash(i) % 64] = true;
  }
  CHECK(check_output(scatter, std::span<const std::uint64_t>(w), kPoison).wrong == 0);
  std::size_t idle = 0;
  while (hit[idle]) ++idle;  // 64 hashes into 64 cells collide somewhere, so some cell is idle
  std::size_t busy = 0;
  while (!hit[busy]) ++busy;
  auto stray = w;
  stray[idle] = stray[busy];
  CHECK(check_output(scatter, std::span<const std::uint64_t>(stray), kPoison).wrong == 1);
  auto swapped = w;
  swapped[busy] = microbench_source(64);  // no thread 64
  CHECK(check_output(scatter, std::span<const std::uint64_t>(swapped), kPoison).wrong == 1);
}

TEST_CASE("transposed: an S x n/S matrix read as its transpose, lanes S apart, each cell once") {
  // n = 24, S = 4: element i = 6 r + c of the 4 x 6 matrix goes to 4 c + r of its 6 x 4 transpose.
  const std::uint64_t expected[24] = {0, 4, 8,  12, 16, 20, 1, 5, 9,  13, 17, 21,
                                      2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23};
  for (std::uint64_t i = 0; i < 24; ++i) {
    CAPTURE(i);
    CHECK(transposed(i, 24, 4) == expected[i]);
    CHECK(transposed_from(transposed(i, 24, 4), 24, 4) == i);
  }
  // For a power-of-two n it is a rotation of the index's bits by log2 S: at n = 2^10, S = 8, left by 3.
  // The GPU's kernels compute it by shifts: the same cells.
  for (std::uint64_t i = 0; i < 1024; ++i) {
    CHECK(transposed(i, 1024, 8) == (((i << 3) | (i >> 7)) & 1023));
    CHECK(transposed_by_shifts(i, 3, 7) == transposed(i, 1024, 8));
    CHECK(transposed_by_shifts(i, 4, 6) == transposed(i, 1024, 16));
  }
}

TEST_CASE("Empty's launches back to back are named by their count and bounded") {
  CHECK(Microbench{MicrobenchKind::Empty, 32, 1, 0, 4}.name() == "empty");
  CHECK(Microbench{MicrobenchKind::Empty, 32, 1, 1, 4}.name() == "empty");
  CHECK(Microbench{MicrobenchKind::Empty, 32, 1, 256, 4}.name() == "empty-x256");
  CHECK(microbench_error({MicrobenchKind::Empty, 32, 1, 1024, 4}) == nullptr);
  CHECK(microbench_error({MicrobenchKind::Empty, 32, 1, 1025, 4}) != nullptr);
}

TEST_CASE("the transposed kinds need a power-of-two stride and n / stride") {
  CHECK(microbench_error({MicrobenchKind::WriteTranspose, 4096, 8, 0, 4}) == nullptr);
  CHECK(microbench_error({MicrobenchKind::ReadTranspose, 4096, 8, 0, 8, true}) == nullptr);
  CHECK(microbench_error({MicrobenchKind::ReadTranspose, 4096, 12, 0, 4}) != nullptr);
  CHECK(microbench_error({MicrobenchKind::WriteTranspose, 24, 4, 0, 4}) != nullptr);
  CHECK(Microbench{MicrobenchKind::WriteTranspose, 4096, 8, 0, 4, true}.name() == "write-transpose-8-cold");
}

TEST_CASE("Empty is one block of 32 threads the engine runs in no time") {
  const Microbench empty = calibration_set().front();
  REQUIRE(empty.kind == MicrobenchKind::Empty);
  const Program p = microbench_program(empty);
  REQUIRE(p.kernels.size() == 1);
  CHECK(p.kernels.front().threads() == 32);
  CHECK(p.kernels.front().steps.empty());
  const Machine machine({.model = ModelKind::Hmm, .w = 32, .l = 1, .L = 20, .k = 4});
  CHECK(run(empty, machine).stats().time_units == 0);
}

TEST_CASE("a microbenchmark the GPU kernels cannot run is refused") {
  CHECK_THROWS_AS(microbench_program({MicrobenchKind::Shared, 1024, 3, 4, 4}), std::invalid_argument);
  CHECK_THROWS_AS(microbench_program({MicrobenchKind::ReadStride, 1000, 64, 0, 4}), std::invalid_argument);
  CHECK_THROWS_AS(microbench_program({MicrobenchKind::Copy, 1024, 1, 0, 2}), std::invalid_argument);
}

TEST_CASE("device slugs: the model for H100 and H200 boards, a clean name otherwise") {
  CHECK(device_slug("NVIDIA H100 80GB HBM3") == "h100");
  CHECK(device_slug("NVIDIA H200") == "h200");
  CHECK(device_slug("NVIDIA H100 PCIe") == "h100");
  CHECK(device_slug("NVIDIA GH100X") == "nvidia-gh100x");
  CHECK(device_slug("Tesla V100-SXM2-16GB") == "tesla-v100-sxm2-16gb");
  CHECK(device_slug("  (x) ") == "x");
  CHECK(device_slug("") == "gpu");
}
