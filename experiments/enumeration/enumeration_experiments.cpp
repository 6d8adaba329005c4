// Every number is simulated: each ordering runs twice on the same HMM, once with the TLB model off
// (the papers' machine) and once with it on, blocks issued in index order with a few resident per
// DMM (asynchronous execution), so that the TLB sees the pages in the order a GPU would touch them.
#include "experiments/enumeration/enumeration_experiments.h"

#include <algorithm>
#include <cmath>

#include "algorithms/enumeration/transpose.h"
#include "experiments/enumeration/table_setting.h"
#include "experiments/figures.h"
#include "io/input_error.h"

namespace mmsim::experiments {

namespace {

using namespace mmsim::enumeration;

constexpr std::uint64_t kRegion = 4;   // super-grid region, in tiles
constexpr int kMinTableTileWidth = 8;  // see machine_of

struct Variant {
  std::string name;
  bool in_place;
  InPlaceConfig ip;
  OutOfPlaceConfig oop;
};

std::vector<Variant> variants(std::uint64_t n) {
  std::vector<Variant> v;
  const auto ip = [&](const std::string& name, InPlaceGrid g, Scheme s) {
    v.push_back({name,
                 true,
                 {.order = n, .grid = g, .scheme = s, .band = kBand, .region = kRegion, .resident = kResident},
                 {}});
  };
  ip("IP naive", InPlaceGrid::Naive, Scheme::V1);
  ip("IP super grid r=" + std::to_string(kRegion), InPlaceGrid::SuperGrid, Scheme::V1);
  ip("IP V1", InPlaceGrid::Scheme, Scheme::V1);
  ip("IP V1R", InPlaceGrid::Scheme, Scheme::V1R);
  ip("IP V1B w=" + std::to_string(kBand), InPlaceGrid::Scheme, Scheme::V1B);
  const auto oop = [&](const std::string& name, bool banded) {
    v.push_back({name, false, {}, {.rows = n, .cols = n, .banded = banded, .band = kBand, .resident = kResident}});
  };
  oop("OOP NVIDIA", false);
  oop("OOP V1BF w=" + std::to_string(kBand), true);
  return v;
}

MachineParams machine_of(const TableOptions& o) {
  MachineParams m;  // the HMM defaults: w = 32, l = 1, L = 100, k = 8
  if (o.w) m.w = *o.w;
  if (o.l) m.l = *o.l;
  if (o.L) m.L = *o.L;
  if (o.k) m.k = *o.k;
  if (auto err = m.validate()) throw InputError(*err);
  if (m.w > kMaxTileWidth) throw InputError("-w: at most " + std::to_string(kMaxTileWidth) + " for this table");
  // Narrow tiles multiply the tiles, (order / w)^2, and the super grid's launches, about
  // (order / 4w)^2 / 2, each a grid barrier: at w = 3 and order 2048 that is 14706 launches over
  // 466489 tiles, hours of simulation for a table meant to take seconds.
  if (m.w < kMinTableTileWidth)
    throw InputError("-w " + std::to_string(m.w) + ": at least " + std::to_string(kMinTableTileWidth) +
                     " for this table (narrower tiles make its super grid's launches grow as (order / w)^2: hours)");
  return m;
}

report::Table make(const MachineParams& m, const std::vector<std::uint64_t>& orders) {
  const TlbParams tlb = table_tlb();
  report::Table t =
      setting_table("GL on the simulated HMM: transposition orderings with and without a TLB", m,
                    "; asynchronous execution, " + std::to_string(kResident) +
                        " resident blocks per DMM, issued in block index order",
                    ", a miss = " + std::to_string(tlb.miss_penalty) +
                        " extra global-memory slots; tiles w x w, one block of w^2 threads per tile (pair)");
  t.parameters = with_machine({}, m, {});  // the order is a column
  t.columns = {"order",
               "algorithm",
               "blocks",
               "idle blocks",
               "launches",
               "time units (no TLB)",
               "time units (TLB)",
               "TLB slow-down",
               "TLB misses",
               "misses per tile",
               "time / banded time",
               "correct"};
  for (std::uint64_t n : orders) {
    const auto vs = variants(n);
    std::vector<TransposeRun> on, off;
    for (const auto& v : vs) {
      for (bool with_tlb : {false, true}) {
        const TlbMachine machine(m, with_tlb ? tlb : TlbParams{});
        const EngineOptions eo{Execution::Asynchronous, false};
        auto r = v.in_place ? run_in_place(machine, v.ip, eo) : run_out_of_place(machine, v.oop, eo);
        (with_tlb ? on : off).push_back(std::move(r));
      }
    }
    // The banded run of each kind is the reference: V1B in place, V1BF out of place.
    const double ip_ref = static_cast<double>(on[4].stats.time_units);
    const double oop_ref = static_cast<double>(on[6].stats.time_units);
    const std::uint64_t tiles = ((n + static_cast<std::uint64_t>(m.w) - 1) / static_cast<std::uint64_t>(m.w));
    for (std::size_t i = 0; i < vs.size(); ++i) {
      const double ton = static_cast<double>(on[i].stats.time_units),
                   toff = static_cast<double>(off[i].stats.time_units);
      t.add_row({static_cast<long long>(n), vs[i].name, static_cast<long long>(on[i].blocks),
                 static_cast<long long>(on[i].idle_blocks), static_cast<long long>(on[i].launches),
                 static_cast<long long>(off[i].stats.time_units), static_cast<long long>(on[i].stats.time_units),
                 ton / toff, static_cast<long long>(on[i].tlb.misses),
                 static_cast<double>(on[i].tlb.misses) / static_cast<double>(tiles * tiles),
                 ton / (vs[i].in_place ? ip_ref : oop_ref),
                 std::string(on[i].correct && off[i].correct ? "yes" : "NO")});
    }
  }
  t.notes = {
      "Every time is simulated on the engine; every run's output is checked cell by cell. 'TLB slow-down' = time with "
      "the TLB "
      "over time without it; 'time / banded time' compares each run with V1B (in place) or V1BF (out of place) at the "
      "same "
      "order, TLB on.",
      "Block order is the only difference between IP naive, V1, V1R and V1B (the same tile-pair kernel); without the "
      "TLB they "
      "cost the same global slots, so any gap with the TLB on is the ordering effect of GL Sect. 3.1.",
      "The in-place schemes number the tiles on and below the diagonal as the entries below the diagonal of an order "
      "nb + 1 "
      "triangle (one launch), where the paper uses a second grid for the diagonal blocks.",
      "IP naive's idle blocks cost nothing here (a block with no request leaves at once); on a GPU they cost a little.",
      "The super grid pays a grid barrier (pipeline drain) per launch: nr(nr + 1)/2 launches for nr = ceil(nb / r) "
      "regions.",
      "At the default machine and TLB, the super grid (r = 4) draws level with V1B (w = 4) at order 1792 and passes it "
      "at "
      "2048: once a tile row spans 4 pages, a 4 x 4-tile region touches fewer pages per tile than a band of 4 tile "
      "columns "
      "(table enumeration-bands shows how the best band moves with the order). The paper measured V1B ahead of the "
      "super grid.",
  };
  return t;
}

std::vector<std::uint64_t> default_orders() { return {256, 512, 768, 1024, 1280, 1536, 1792, 2048}; }

report::Table make_bands(const MachineParams& m, const std::vector<std::uint64_t>& orders) {
  const TlbParams tlb = table_tlb();
  report::Table t =
      setting_table("GL on the simulated HMM: the band width of V1B (in place) and V1BF (out of place) under a TLB", m,
                    "; asynchronous, " + std::to_string(kResident) + " resident blocks per DMM",
                    ", " + std::to_string(tlb.miss_penalty) + " slots per miss");
  t.parameters = with_machine({}, m, {});  // the order is a column
  t.columns = {"order",         "algorithm",  "band (tiles)",    "time units (TLB)",
               "TLB slow-down", "TLB misses", "misses per tile", "correct"};
  const EngineOptions eo{Execution::Asynchronous, false};
  for (std::uint64_t n : orders) {
    const std::uint64_t tiles = (n + static_cast<std::uint64_t>(m.w) - 1) / static_cast<std::uint64_t>(m.w);
    for (bool in_place : {true, false}) {
      InPlaceConfig ip;
      ip.order = n;
      ip.grid = InPlaceGrid::Scheme;
      ip.scheme = Scheme::V1B;
      ip.resident = kResident;
      OutOfPlaceConfig oop;
      oop.rows = oop.cols = n;
      oop.banded = true;
      oop.resident = kResident;
      const TlbMachine plain(m, TlbParams{});
      const auto base = in_place ? run_in_place(plain, ip, eo) : run_out_of_place(plain, oop, eo);
      for (std::uint64_t band : {1, 2, 4, 8, 16}) {
        if (band > tiles) break;
        ip.band = oop.band = band;
        const TlbMachine machine(m, tlb);
        const auto r = in_place ? run_in_place(machine, ip, eo) : run_out_of_place(machine, oop, eo);
        t.add_row({static_cast<long long>(n), std::string(in_place ? "IP V1B" : "OOP V1BF"),
                   static_cast<long long>(band), static_cast<long long>(r.stats.time_units),
                   static_cast<double>(r.stats.time_units) / static_cast<double>(base.stats.time_units),
                   static_cast<long long>(r.tlb.misses),
                   static_cast<double>(r.tlb.misses) / static_cast<double>(tiles * tiles),
                   std::string(r.correct && base.correct ? "yes" : "NO")});
      }
    }
  }
  t.notes = {
      "A band of w tiles keeps w upper tile rows (in place) or w output tile rows (out of place) in use while each "
      "lower / "
      "input tile row is visited once per band: wider bands miss less until the w tile rows' pages no longer fit the "
      "TLB, "
      "so the best width depends on the TLB and the order, as the paper's per-device choice of w does (Sect. 7).",
      "TLB slow-down: time with the TLB over the same run without it.",
  };
  return t;
}

}  // namespace

report::Table enumeration_bands_table(const TableOptions& o) {
  const MachineParams m = machine_of(o);
  std::vector<std::uint64_t> orders{1024, 2048};
  if (o.n) {
    if (*o.n < 1 || *o.n > kMaxInPlaceOrder)
      throw InputError("-n: the matrix order, between 1 and " + std::to_string(kMaxInPlaceOrder) + " for this table");
    orders = {*o.n};
  }
  return make_bands(m, orders);
}

report::Table enumeration_tlb_table(const TableOptions& o) {
  const MachineParams m = machine_of(o);
  std::vector<std::uint64_t> orders = default_orders();
  if (o.n) {
    if (*o.n < 1 || *o.n > kMaxInPlaceOrder)
      throw InputError("-n: the matrix order, between 1 and " + std::to_string(kMaxInPlaceOrder) + " for this table");
    orders = {*o.n};
  }
  return make(m, orders);
}

std::vector<std::string> enumeration_tlb_figure(const std::string& out_dir) {
  const report::Table t = make(MachineParams{}, default_orders());
  write_file(out_dir + "/enumeration-tlb.csv", report::to_csv(t));
  // One block of rows per algorithm: order, time (no TLB), time (TLB), misses.
  std::vector<std::string> algos;
  for (const auto& row : t.rows) {
    const auto& a = std::get<std::string>(row[1]);
    if (std::find(algos.begin(), algos.end(), a) == algos.end()) algos.push_back(a);
  }
  std::string data;
  for (const auto& a : algos) {
    data += "# " + a + "\n";
    for (const auto& row : t.rows)
      if (std::get<std::string>(row[1]) == a) {
        const double order = static_cast<double>(std::get<long long>(row[0]));
        const double cells = order * order;
        data += std::to_string(std::get<long long>(row[0])) + " " +
                report::format_number(cells / static_cast<double>(std::get<long long>(row[5])), 6) + " " +
                report::format_number(cells / static_cast<double>(std::get<long long>(row[6])), 6) + " " +
                std::to_string(std::get<long long>(row[8])) + "\n";
      }
    data += "\n\n";
  }
  write_file(out_dir + "/enumeration-tlb.dat", data);
  // Curves that coincide hide each other: each subtitle says which do (within 1% at every order),
  // computed from the table so that it stays true. Without the TLB they all sit near 16 cells per
  // time unit, since only the block order differs.
  const auto coinciding = [&](std::size_t column) {
    std::vector<std::vector<double>> v(algos.size());
    for (std::size_t i = 0; i < algos.size(); ++i)
      for (const auto& row : t.rows)
        if (std::get<std::string>(row[1]) == algos[i])
          v[i].push_back(static_cast<double>(std::get<long long>(row[column])));
    const auto same = [&](std::size_t a, std::size_t b) {
      for (std::size_t j = 0; j < v[a].size(); ++j)
        if (std::abs(v[a][j] - v[b][j]) > 0.01 * std::max(v[a][j], v[b][j])) return false;
      return true;
    };
    std::vector<std::vector<std::size_t>> groups;
    std::vector<std::size_t> apart;
    std::vector<bool> used(algos.size(), false);
    for (std::size_t i = 0; i < algos.size(); ++i) {
      if (used[i]) continue;
      std::vector<std::size_t> g{i};
      for (std::size_t j = i + 1; j < algos.size(); ++j) {
        bool all = !used[j];
        for (std::size_t m : g) all = all && same(m, j);
        if (all) g.push_back(j);
      }
      for (std::size_t m : g) used[m] = true;
      if (g.size() > 1)
        groups.push_back(g);
      else
        apart.push_back(i);
    }
    if (groups.empty()) return std::string("no two coincide");
    std::string said;
    if (groups.size() == 1 && groups[0].size() > 2 && apart.size() <= 2) {  // "all but X" reads better
      for (std::size_t k = 0; k < apart.size(); ++k) said += (k ? " and " : "") + algos[apart[k]];
      return "all but " + said + " coincide";
    }
    for (const auto& g : groups) {
      said += said.empty() ? "" : " coincide, ";
      for (std::size_t k = 0; k < g.size(); ++k)
        said += (k == 0 ? "" : k + 1 < g.size() ? ", " : " and ") + algos[g[k]];
    }
    return said + " coincide";
  };
  // Room above the highest curve, so that the dashed ones near 16 do not run along the frame.
  double top = 0;
  for (const auto& row : t.rows) {
    const double order = static_cast<double>(std::get<long long>(row[0]));
    top = std::max(top, order * order / static_cast<double>(std::get<long long>(row[5])));
  }
  GnuplotVariables v;
  v.images("output", "enumeration-tlb", {"png", "svg"})
      .number("w", MachineParams{}.w)
      .number("k", MachineParams{}.k)
      .number("resident", kResident)
      .texts("algo", algos)
      .number("ymax", report::format_number(top * 1.06, 3))
      .text("solid", coinciding(6))
      .text("dashed", coinciding(5))
      .text("misses", coinciding(8));
  run_gnuplot(out_dir, "enumeration-tlb", v, "enumeration-tlb");
  return {out_dir + "/enumeration-tlb.csv", out_dir + "/enumeration-tlb.dat", out_dir + "/enumeration-tlb.gp",
          out_dir + "/enumeration-tlb.png", out_dir + "/enumeration-tlb.svg"};
}

}  // namespace mmsim::experiments
