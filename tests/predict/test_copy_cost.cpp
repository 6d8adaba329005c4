// The copy microbenchmarks' set and the copy term fitted on them, and the tile microbenchmarks' set:
// the grids' promises, the fit
// recovering the costs and the form that made the samples, held-out errors, and the refusals.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "predict/copy_cost.h"
#include "predict/fit.h"
#include "predict/instruction_bench.h"

using namespace mmsim::predict;

TEST_CASE("copy benches: none at an A-S row count, every one fits an SM, the data within the L2") {
  std::set<std::string> names;
  std::set<std::uint32_t> rows;
  for (const CopyBench& b : copy_benches()) {
    CHECK(names.insert(b.name()).second);
    rows.insert(b.rows);
    CHECK((b.rows & (b.rows - 1)) != 0);  // A-S's m is a power of two: no copy bench shares one
    CHECK(b.warps_per_sm >= 1);
    CHECK(b.warps_per_sm <= 32);
    CHECK(std::uint64_t{b.rows} * b.warps_per_sm <= 1000);
    CHECK(b.shared_bytes() * b.warps_per_sm <= 227u * 1024);  // an H100's or H200's shared memory per SM
  }
  CHECK(rows.size() >= 4);  // enough row counts to leave one out
  CHECK(CopyBench{24, 4}.name() == "copy-r24-w4");
  CHECK(CopyBench{24, 4}.shared_bytes() == 24 * 128);
  // The input's words differ from their neighbours, so a copy shifted by one word is caught.
  for (std::uint64_t i = 0; i < 4096; ++i) CHECK(copy_input_word(i) != copy_input_word(i + 1));
}

TEST_CASE("tile benches: every combination once, whole tiles, a residency an SM can hold, within and beyond the L2") {
  std::set<std::string> names;
  std::set<std::uint32_t> loads, blocks;
  std::set<bool> places;
  for (const TileBench& b : tile_benches()) {
    CHECK(names.insert(b.name()).second);
    loads.insert(b.loads);
    blocks.insert(b.blocks_per_sm);
    places.insert(b.in_place);
    CHECK(b.words() % b.tile_words() == 0);
    CHECK(b.blocks() * b.tile_words() == b.words());
    CHECK(b.blocks_per_sm * b.threads <= 2048);  // an SM's threads
    CHECK((b.threads == kTileThreads || b.threads == 1024));
    CHECK(b.tile_words() * 4 * b.blocks_per_sm <= 227u * 1024);  // its shared memory
    CHECK(b.blocks() >= 128);                                    // about a block for every SM at least
  }
  CHECK(names.size() == 192);  // 128 of 256 threads, 64 of 1024 (1 or 2 an SM)
  CHECK(loads == std::set<std::uint32_t>{1, 2, 4, 8});
  CHECK(blocks == std::set<std::uint32_t>{1, 2, 4, 8});
  CHECK(places.size() == 2);
  // Two sizes fit the L2's effective 30 MiB (the profiles' fitted capacity) with their output, two
  // exceed an H200's whole 60 MiB at least twice.
  std::set<std::uint32_t> within, beyond;
  for (const TileBench& b : tile_benches()) (b.words() * 4 * 2 <= 30u << 20 ? within : beyond).insert(b.mib);
  CHECK(within.size() == 2);
  CHECK(beyond.size() == 2);
  for (const std::uint32_t mib : beyond) CHECK((std::uint64_t{mib} << 20) >= 2 * (60u << 20));
  CHECK(TileBench{4, 2, 12, true}.name() == "tile-k4-b2-m12-in-place");
  CHECK(TileBench{8, 1, 256, false}.name() == "tile-k8-b1-m256");
  CHECK(TileBench{8, 1, 256, false, 1024}.name() == "tile-k8-b1-m256-t1024");
  CHECK(TileBench{8, 1, 256, false, 1024}.blocks() == (std::uint64_t{256} << 18) / 8192);
  // The expected output is the neighbour's word: different from the word itself, and its own inverse.
  for (std::uint64_t i = 0; i < 4096; ++i) {
    CHECK(tile_output_word(i) != copy_input_word(i));
    CHECK(tile_output_word(i ^ 1u) == copy_input_word(i));
  }
}

namespace {

// The copy benches' samples made by a latency of 300 cycles a row, a throughput of 40 a row per
// warp, and 500 cycles fixed, in the form given.
std::vector<CopySample> made(CostForm form) {
  std::vector<CopySample> out;
  for (const CopyBench& b : copy_benches()) {
    const double r = b.rows, w = b.warps_per_sm;
    const double per_row = form == CostForm::Bound ? std::max(300.0, 40 * w) : 300 + 40 * w;
    out.push_back({b.name(), r, w, 500 + r * per_row});
  }
  return out;
}

}  // namespace

TEST_CASE("copy costs: the fit recovers the costs that made the samples, and their form") {
  for (const CostForm form : {CostForm::Bound, CostForm::Additive}) {
    CAPTURE(to_string(form));
    const CopyCosts c = fit_copy_costs(made(form));
    CHECK(c.form == form);
    CHECK(c.fixed == doctest::Approx(500));
    CHECK(c.latency == doctest::Approx(300));
    CHECK(c.throughput == doctest::Approx(40));
    CHECK(c.fitted == doctest::Approx(0).epsilon(1e-9));
    CHECK(c.held_out == doctest::Approx(0).epsilon(1e-6));
    CHECK(c.held_out_other_form > 0.01);  // the other form cannot make these samples
    CHECK(c.samples == static_cast<int>(copy_benches().size()));
  }
  // Worked by hand: 512 rows at 3 warps, bound: 500 + 512 * max(300, 120); additive: 500 + 512 * 420.
  CHECK(fit_copy_costs(made(CostForm::Bound)).cycles(512, 3) == doctest::Approx(500 + 512 * 300.0));
  CHECK(fit_copy_costs(made(CostForm::Bound)).cycles(16, 32) == doctest::Approx(500 + 16 * 1280.0));
  CHECK(fit_copy_costs(made(CostForm::Additive)).cycles(512, 3) == doctest::Approx(500 + 512 * 420.0));
  const std::string text = describe(fit_copy_costs(made(CostForm::Bound)));
  CHECK(text.find("bound, 500 cycles + rows x max(300, warps x 40) (14 microbenchmarks: median error 0.000 fitted") ==
        0);
}

TEST_CASE("copy costs: a row count the fit did not see is predicted from the others") {
  // The 1000-row bench made at twice its cycles: left out, it is predicted at half of them.
  std::vector<CopySample> s = made(CostForm::Bound);
  for (CopySample& x : s)
    if (x.rows == 1000) x.cycles *= 2;
  const CopyCosts c = fit_copy_costs(s);
  CHECK(c.worst_held_out == doctest::Approx(2).epsilon(0.01));
  CHECK(c.fitted >= 0);
}

TEST_CASE("copy costs: too few samples, one row count, or a non-positive figure is refused") {
  const std::vector<CopySample> s = made(CostForm::Bound);
  CHECK_THROWS_AS(fit_copy_costs({s.begin(), s.begin() + 3}), std::invalid_argument);
  CHECK_THROWS_AS(fit_copy_costs({s.begin(), s.begin() + 4}), std::invalid_argument);  // all of 6 rows
  for (double CopySample::*field : {&CopySample::rows, &CopySample::warps, &CopySample::cycles}) {
    std::vector<CopySample> bad = s;
    bad[5].*field = 0;
    CHECK_THROWS_WITH_AS(fit_copy_costs(bad), doctest::Contains(bad[5].bench.c_str()), std::invalid_argument);
  }
}

TEST_CASE("interval factor: the nearest-rank 80 % quantile of the held-out factors") {
  CHECK(interval_factor_of({}) == 1);
  // Factors 1.1, 2, 1.2, 1.05, 2 (-0.5 is a factor of 2 too): the 4th of five in order, 2.
  CHECK(interval_factor_of({0.1, -0.5, 0.2, 0.05, 1.0}) == doctest::Approx(2));
  CHECK(interval_factor_of({0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}) == doctest::Approx(1.8));
  CHECK(interval_factor_of({-1}) == doctest::Approx(1e6));  // a prediction of 0: a factor of 10^6
}
