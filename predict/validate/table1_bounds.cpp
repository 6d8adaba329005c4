#include "predict/validate/table1_bounds.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>
#include <utility>

#include "algorithms/closed_forms.h"
#include "algorithms/permutations/permutation.h"
#include "io/input_error.h"

namespace mmsim::predict {

std::string table1_row_of(const std::string& kernel) {
  if (kernel == "d-designated" || kernel == "s-designated" || kernel == "in-place") return kernel;
  if (kernel.rfind("scheduled", 0) == 0) return "scheduled";
  return "";
}

namespace {

// KNI Table 1's expression for a row at size n on machine m, D_w given for the conventional rows.
// The shared-memory terms are the busiest DMM's slots, as algorithms/closed_forms.h reads them.
std::int64_t row_bound(const std::string& row, std::int64_t n, const MachineParams& m, std::uint64_t d,
                       std::uint64_t d_inverse) {
  const std::int64_t w = m.w, side = static_cast<std::int64_t>(exact_sqrt(static_cast<std::uint64_t>(n)));
  const std::int64_t tile_busiest = closed_form::busiest_dmm_slots(n / (w * w), w * w, w, m.k);
  const std::int64_t row_busiest = closed_form::busiest_dmm_slots(side, side, w, m.k);
  if (row == "d-designated") return closed_form::conventional(static_cast<std::int64_t>(d), n, w, m.L);
  if (row == "s-designated") return closed_form::conventional(static_cast<std::int64_t>(d_inverse), n, w, m.L);
  if (row == "in-place") return closed_form::regular_permutation(n, w, m.L, m.l, tile_busiest);
  return closed_form::scheduled(n, w, m.L, m.l, tile_busiest, row_busiest);
}

}  // namespace

std::vector<BoundedRun> table1_bounds(const MachineParams& m, const std::vector<MeasuredRun>& runs, std::uint64_t seed,
                                      unsigned threads) {
  const auto w = static_cast<std::uint64_t>(m.w);
  std::vector<BoundedRun> out;
  // D_w(P) and D_w(P^-1) per (permutation, n) that a conventional run needs.
  std::map<std::pair<std::string, std::uint64_t>, std::pair<std::uint64_t, std::uint64_t>> dist;
  for (const MeasuredRun& r : runs) {
    const std::string row = table1_row_of(r.kernel);
    if (row.empty()) continue;
    if (r.n % (w * w) != 0 || exact_sqrt(r.n) % w != 0)
      throw InputError("n = " + std::to_string(r.n) +
                       ": Table 1's bounds need sqrt(n) a multiple of w = " + std::to_string(w));
    if (row == "d-designated" || row == "s-designated") dist[{r.permutation, r.n}] = {0, 0};
    out.push_back({row, r, 0, 0, 0});
  }
  // Largest first, one permutation per thread at a time (2^28 words of P and P^-1 take 2 GiB).
  std::vector<std::pair<std::string, std::uint64_t>> keys;
  for (const auto& [key, value] : dist) keys.push_back(key);
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<std::pair<std::uint64_t, std::uint64_t>> values(keys.size());
  std::vector<std::string> errors(keys.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < keys.size();) {
      try {
        const Permutation p = named_permutation(keys[i].first, keys[i].second, seed);
        values[i] = {distribution(p.p, w), distribution(inverse(p.p), w)};
      } catch (const InputError& e) {
        errors[i] = e.what();
      }
    }
  };
  const unsigned t = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(keys.size())));
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < t; ++i) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!errors[i].empty()) throw InputError(keys[i].first + ": " + errors[i]);
    dist[keys[i]] = values[i];
  }
  for (BoundedRun& b : out) {
    if (const auto it = dist.find({b.measured.permutation, b.measured.n}); it != dist.end())
      std::tie(b.distribution, b.distribution_inverse) = it->second;
    b.bound = row_bound(b.row, static_cast<std::int64_t>(b.measured.n), m, b.distribution, b.distribution_inverse);
  }
  return out;
}

report::Table table1_bounds_table(const MachineParams& m, std::uint64_t seed, const std::vector<BoundedRun>& runs) {
  report::Table t;
  t.title = "KNI Table 1's bounds beside the GPU's times";
  t.header = {"bound: the row's expression in time units on the HMM with w = " + std::to_string(m.w) +
                  ", l = " + std::to_string(m.l) + ", L = " + std::to_string(m.L) + ", k = " + std::to_string(m.k) +
                  " (the GPU profile's machine); D_w from the permutation itself (seed " + std::to_string(seed) + ")",
              "rows: d-designated D_w(P) + 2n/w + 3L - 3, s-designated D_w(P^-1) + 2n/w + 3L - 3, in-place "
              "(Lemma 5) 2n/w + 2n/(kw) + 2L - 2, scheduled (Theorem 9) 16n/w + 16n/(kw) + 16L - 16"};
  t.columns = {
      "row", "kernel", "type", "permutation", "n", "ms", "distribution", "distribution_inverse", "bound_time_units"};
  t.parameters = {{"w", static_cast<long long>(m.w)},
                  {"l", static_cast<long long>(m.l)},
                  {"L", static_cast<long long>(m.L)},
                  {"k", static_cast<long long>(m.k)},
                  {"seed", static_cast<long long>(seed)}};
  for (const BoundedRun& b : runs) {
    const bool conventional = b.row == "d-designated" || b.row == "s-designated";
    report::Cell d, di;
    if (conventional) {
      d = static_cast<long long>(b.distribution);
      di = static_cast<long long>(b.distribution_inverse);
    }
    t.add_row({b.row, b.measured.kernel, b.measured.type, b.measured.permutation, static_cast<long long>(b.measured.n),
               b.measured.ms, d, di, static_cast<long long>(b.bound)});
  }
  return t;
}

}  // namespace mmsim::predict
