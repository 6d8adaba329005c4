// The GPU transposes' index arithmetic (cuda/rap_index.h), run on the CPU against the layouts
// family: the same addresses as models/layouts's MatrixLayout, the same cells as NMI's
// CRSW / SRCW / DRDW, and per-warp bank counts equal to the simulator's for the same layout.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "algorithms/layouts/transposes.h"
#include "cuda/rap_index.h"
#include "cuda/rap_shifts.h"
#include "report/csv.h"

using namespace mmsim;
using namespace mmsim::gpu;

namespace {

const SmemLayout kLayouts[] = {SmemLayout::Raw, SmemLayout::Ras, SmemLayout::Rap, SmemLayout::Pad, SmemLayout::Xor};
const SmemTranspose kTransposes[] = {SmemTranspose::Crsw, SmemTranspose::Srcw, SmemTranspose::Drdw};

layouts::MatrixLayout layout_of(SmemLayout k, const std::vector<std::uint8_t>& shifts, std::size_t which) {
  std::vector<std::uint32_t> r(kW, 0);
  if (random_layout(k))
    for (std::uint32_t i = 0; i < kW; ++i) r[i] = shifts.at(which * kW + i);
  return layouts::MatrixLayout::with_shifts(kind_of(k), r);
}

// Per warp of one access: (slots = max over banks of distinct addresses, sum over banks of
// distinct - 1), summed over the 32 warps.
std::pair<std::uint64_t, std::uint64_t> bank_counts(const std::vector<std::uint32_t>& addr) {
  std::uint64_t slots = 0, conflicts = 0;
  for (std::uint32_t w = 0; w < kW; ++w) {
    std::set<std::uint32_t> per_bank[kW];
    for (std::uint32_t l = 0; l < kW; ++l) per_bank[addr[w * kW + l] % kW].insert(addr[w * kW + l]);
    std::size_t worst = 0;
    for (const auto& b : per_bank) {
      worst = std::max(worst, b.size());
      if (!b.empty()) conflicts += b.size() - 1;
    }
    slots += worst;
  }
  return {slots, conflicts};
}

}  // namespace

TEST_CASE("the GPU enums follow the layouts family's lists") {
  for (int k = 0; k < kSmemLayouts; ++k)
    CHECK(std::string(layouts::to_string(kind_of(static_cast<SmemLayout>(k)))) ==
          std::string(layouts::to_string(layouts::matrix_layout_kinds()[k])));
  CHECK(std::string(layouts::to_string(kind_of(SmemLayout::Rap))) == "rap");
  CHECK(std::string(layouts::to_string(transpose_of(SmemTranspose::Drdw))) == "drdw");
  CHECK(layouts::matrix_layout_kinds().size() == static_cast<std::size_t>(kSmemLayouts));
  CHECK(layouts::transposes().size() == static_cast<std::size_t>(kSmemTransposes));
}

TEST_CASE("rap_shifts draws the layouts rap-t3 draws") {
  for (SmemLayout k : {SmemLayout::Ras, SmemLayout::Rap}) {
    const auto shifts = rap_shifts(k, 11, 4);
    REQUIRE(shifts.size() == 4 * kW);
    for (std::uint64_t s = 0; s < 4; ++s) {
      layouts::Draws draws(11 + s);
      const layouts::MatrixLayout ref(kind_of(k), kW, draws);
      for (std::uint32_t i = 0; i < kW; ++i) CHECK(shifts[s * kW + i] == ref.shifts()[i]);
    }
  }
  // rap's shifts are a permutation; raw, pad and xor have none (one row of zeros).
  auto p = rap_shifts(SmemLayout::Rap, 3, 1);
  std::sort(p.begin(), p.end());
  for (std::uint32_t i = 0; i < kW; ++i) CHECK(p[i] == i);
  for (SmemLayout k : {SmemLayout::Raw, SmemLayout::Pad, SmemLayout::Xor}) {
    const auto z = rap_shifts(k, 3, 100);
    CHECK(z.size() == kW);
    CHECK(std::all_of(z.begin(), z.end(), [](std::uint8_t r) { return r == 0; }));
  }
}

TEST_CASE("smem_address is MatrixLayout::address for w = 32") {
  for (SmemLayout k : kLayouts) {
    CAPTURE(static_cast<int>(k));
    const auto shifts = rap_shifts(k, 1, 20);
    for (std::size_t which = 0; which < shifts.size() / kW; ++which) {
      const auto ref = layout_of(k, shifts, which);
      CHECK(smem_cells(k) == ref.cells());
      bool same = true;
      std::set<std::uint32_t> seen;
      for (std::uint32_t i = 0; i < kW; ++i)
        for (std::uint32_t j = 0; j < kW; ++j) {
          const std::uint32_t a = smem_address(k, i, j, shifts[which * kW + i]);
          same = same && a == ref.address(i, j);
          seen.insert(a);
        }
      CHECK(same);
      CHECK(seen.size() == kTile);  // a bijection onto its cells
      CHECK(*seen.rbegin() < smem_cells(k));
    }
  }
}

TEST_CASE("the transposes' cells are NMI's CRSW, SRCW and DRDW") {
  for (SmemTranspose t : kTransposes) {
    std::set<std::pair<std::uint32_t, std::uint32_t>> read, written;
    for (std::uint32_t th = 0; th < kTile; ++th) {
      const std::uint32_t i = th / kW, j = th % kW;
      const SmemCell r = smem_read_cell(t, th), w = smem_write_cell(t, th);
      if (t == SmemTranspose::Crsw) CHECK((r.row == i && r.col == j));
      if (t == SmemTranspose::Srcw) CHECK((r.row == j && r.col == i));
      if (t == SmemTranspose::Drdw) CHECK((r.row == (i + j) % kW && r.col == j));
      CHECK((w.row == r.col && w.col == r.row));
      read.insert({r.row, r.col});
      written.insert({w.row, w.col});
    }
    CHECK(read.size() == kTile);
    CHECK(written.size() == kTile);
  }
}

TEST_CASE("per-warp bank counts of the kernel's addresses equal the simulator's") {
  for (SmemTranspose t : kTransposes)
    for (SmemLayout k : kLayouts) {
      CAPTURE(static_cast<int>(t));
      CAPTURE(static_cast<int>(k));
      const auto shifts = rap_shifts(k, 5, 6);
      for (std::size_t which = 0; which < shifts.size() / kW; ++which) {
        const std::uint8_t* r = shifts.data() + which * kW;
        std::vector<std::uint32_t> ra(kTile), wa(kTile);
        for (std::uint32_t th = 0; th < kTile; ++th) {
          const SmemCell rc = smem_read_cell(t, th), wc = smem_write_cell(t, th);
          ra[th] = smem_address(k, rc.row, rc.col, r[rc.row]);
          wa[th] = smem_address(k, wc.row, wc.col, r[wc.row]);
        }
        const auto run = layouts::run_transpose(transpose_of(t), layout_of(k, shifts, which), 1, {});
        REQUIRE(run.correct);
        const auto [rs, rc] = bank_counts(ra);
        const auto [ws, wc] = bank_counts(wa);
        CHECK(rs == run.stats.rounds.at(0).slots);
        CHECK(rc == run.stats.rounds.at(0).extra_bank_requests);
        CHECK(ws == run.stats.rounds.at(1).slots);
        CHECK(wc == run.stats.rounds.at(1).extra_bank_requests);
        // Nsight Compute's count: the wavefronts beyond one per warp.
        for (const auto& round : run.stats.rounds) CHECK(round.bank_conflicts == round.slots - round.warps);
      }
    }
}

TEST_CASE("the kernel's ping-pong leaves the transpose in b and the original in a") {
  // The timed loop of k_rap_transpose on the host: dst[wa] = src[ra], then swap, an even number of times.
  for (SmemTranspose t : kTransposes)
    for (SmemLayout k : kLayouts) {
      const auto shifts = rap_shifts(k, 9, 1);
      const std::uint8_t* r = shifts.data();
      std::vector<std::uint32_t> a(smem_cells(k), ~0u), b(smem_cells(k), ~0u);
      for (std::uint32_t th = 0; th < kTile; ++th) a[smem_address(k, th / kW, th % kW, r[th / kW])] = th;
      std::vector<std::uint32_t>* src = &a;
      std::vector<std::uint32_t>* dst = &b;
      for (int rep = 0; rep < 4; ++rep) {
        for (std::uint32_t th = 0; th < kTile; ++th) {
          const SmemCell rc = smem_read_cell(t, th), wc = smem_write_cell(t, th);
          (*dst)[smem_address(k, wc.row, wc.col, r[wc.row])] = (*src)[smem_address(k, rc.row, rc.col, r[rc.row])];
        }
        std::swap(src, dst);
      }
      bool ok = true;
      for (std::uint32_t x = 0; x < kW; ++x)
        for (std::uint32_t y = 0; y < kW; ++y) {
          ok = ok && b[smem_address(k, x, y, r[x])] == y * kW + x;
          ok = ok && a[smem_address(k, x, y, r[x])] == x * kW + y;
        }
      CHECK(ok);
    }
}

TEST_CASE("bank_conflicts equals Nsight Compute's counters of results/gpu-h200/ncu-rap.csv on every kernel") {
  // The file holds one load and one store metric per kernel, kernels in launch order: transposes x
  // layouts, the random layouts drawn from seed 1 (cuda/ncu_rap.sh, `mmsim gpu rap-profile`).
  std::ifstream in(MMSIM_SOURCE_DIR "/results/gpu-h200/ncu-rap.csv");
  REQUIRE(in);
  std::map<int, std::pair<long long, long long>> by_kernel;  // id -> (load, store)
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '"' || line.rfind("\"ID\"", 0) == 0) continue;
    const auto fields = report::split_csv_record(line);
    REQUIRE(fields);
    const auto& f = *fields;
    REQUIRE(f.size() == 15);
    const long long v = std::stoll(f[14]);
    auto& slot = by_kernel[std::stoi(f[0])];
    if (f[12].find("op_ld") != std::string::npos)
      slot.first = v;
    else
      slot.second = v;
  }
  REQUIRE(by_kernel.size() == static_cast<std::size_t>(kSmemTransposes * kSmemLayouts));
  for (const auto& [id, counts] : by_kernel) {
    const auto t = kTransposes[id / kSmemLayouts];
    const auto k = kLayouts[id % kSmemLayouts];
    CAPTURE(layouts::to_string(transpose_of(t)));
    CAPTURE(layouts::to_string(kind_of(k)));
    layouts::Draws draws(1);
    const layouts::MatrixLayout layout(kind_of(k), kW, draws);
    const auto run = layouts::run_transpose(transpose_of(t), layout, 1, {});
    CHECK(counts.first == static_cast<long long>(run.stats.rounds.at(0).bank_conflicts));
    CHECK(counts.second == static_cast<long long>(run.stats.rounds.at(1).bank_conflicts));
  }
}
