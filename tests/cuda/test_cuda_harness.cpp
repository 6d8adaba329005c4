// The host half of the GPU harness's check (cuda/harness/poison.h), run on the CPU: the comparison
// every permutation family's result goes through must count every wrong cell and name the lowest,
// however the cells are split over threads; and the poison must be no cell's value.
#include <doctest/doctest.h>

#include <cstring>
#include <set>

#include "cuda/enumeration/tiles.h"
#include "cuda/harness/poison.h"
#include "cuda/index.h"

using namespace mmsim::gpu;

TEST_CASE("compare_cells counts every wrong cell and names the lowest, on any number of threads") {
  const std::set<std::uint64_t> wrong{5, 999, 1000, 4095};
  for (unsigned threads : {0u, 1u, 2u, 3u, 7u, 64u}) {
    const Mismatches m = compare_cells(4096, threads, [&](std::uint64_t i) { return !wrong.count(i); });
    CHECK(m.count == wrong.size());
    CHECK(m.first == 5);
  }
}

TEST_CASE("compare_cells finds the lowest wrong cell when it lies in a later thread's range") {
  const Mismatches m = compare_cells(1000, 4, [](std::uint64_t i) { return i != 900 && i != 901; });
  CHECK(m.count == 2);
  CHECK(m.first == 900);
}

TEST_CASE("compare_cells of right cells, or of none, finds nothing") {
  CHECK(compare_cells(1000, 8, [](std::uint64_t) { return true; }).count == 0);
  CHECK(compare_cells(0, 8, [](std::uint64_t) { return false; }).count == 0);
  // More threads than cells: the empty ranges check nothing.
  CHECK(compare_cells(3, 8, [](std::uint64_t i) { return i != 2; }).count == 1);
}

TEST_CASE("the poison is no source value of the permutation kernels, float or double") {
  std::uint32_t p32 = 0;
  std::uint64_t p64 = 0;
  std::memset(&p32, kPoisonByte, sizeof p32);
  std::memset(&p64, kPoisonByte, sizeof p64);
  // source_bits32/64 are 1.0 plus the cell index: increasing, so checking the ends covers every i < 2^28.
  CHECK(source_bits32(0) < p32);
  CHECK(source_bits32((1u << 28) - 1) < p32);
  CHECK(source_bits64(0) < p64);
  CHECK(source_bits64((1u << 28) - 1) < p64);
}

TEST_CASE("the enumeration kernels' poison is the harness's, and no cell holds it") {
  std::uint32_t p32 = 0;
  std::memset(&p32, kPoisonByte, sizeof p32);
  CHECK(enumeration::kPoison == p32);
  // cell_bits keeps bit 30 clear; the poison has it set.
  for (std::uint64_t i : {0ull, 1ull, 12345ull, (1ull << 31) - 1, 1ull << 31, (1ull << 32) + 7})
    CHECK(enumeration::cell_bits(i) != p32);
}
