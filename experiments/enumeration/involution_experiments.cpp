// GL's 3D involutions (Sect. 3.3, Figs. 14-15) and its thread-wise algorithm on the simulated HMM,
// under the TLB of the 2D table: every number simulated, every output checked cell by cell.
#include <algorithm>

#include "algorithms/enumeration/involutions.h"
#include "experiments/enumeration/enumeration_experiments.h"
#include "experiments/enumeration/table_setting.h"
#include "experiments/figures.h"
#include "io/input_error.h"

namespace mmsim::experiments {

namespace {

using namespace mmsim::enumeration;

// Depths 2 and 4: the ends of the paper's 2, 3, 4 (Figs. 14-15).
constexpr std::uint64_t kDepths[] = {2, 4};

report::Table make_3d(const MachineParams& m, const std::vector<std::uint64_t>& orders) {
  const TlbParams tlb = table_tlb();
  report::Table t = setting_table(
      "GL on the simulated HMM: the 3D involutions T_yxz and T_zyx in place, original grid and V1B, with a TLB", m,
      "; asynchronous, " + std::to_string(kResident) +
          " resident blocks per DMM, issued in block index order (the plane outermost)",
      ", " + std::to_string(tlb.miss_penalty) + " slots per miss; V1B bands of " + std::to_string(kBand) + " tiles");
  t.parameters = with_machine({}, m, {});  // the order is a column
  t.columns = {"order",         "depth",       "involution",          "grid",
               "blocks",        "idle blocks", "time units (no TLB)", "time units (TLB)",
               "TLB slow-down", "TLB misses",  "time / V1B time",     "correct"};
  const EngineOptions eo{Execution::Asynchronous, false};
  for (std::uint64_t n : orders)
    for (std::uint64_t d : kDepths)
      for (Involution which : {Involution::Yxz, Involution::Zyx}) {
        TransposeRun on[2], off[2];
        for (int banded = 0; banded < 2; ++banded) {
          const Involution3DConfig c{
              .which = which, .order = n, .depth = d, .banded = banded == 1, .band = kBand, .resident = kResident};
          on[banded] = run_involution(TlbMachine(m, tlb), c, eo);
          off[banded] = run_involution(TlbMachine(m, TlbParams{}), c, eo);
        }
        for (int banded = 0; banded < 2; ++banded) {
          const double ton = static_cast<double>(on[banded].stats.time_units);
          t.add_row({static_cast<long long>(n), static_cast<long long>(d), std::string("T_") + to_string(which),
                     std::string(banded ? "V1B" : "original"), static_cast<long long>(on[banded].blocks),
                     static_cast<long long>(on[banded].idle_blocks),
                     static_cast<long long>(off[banded].stats.time_units),
                     static_cast<long long>(on[banded].stats.time_units),
                     ton / static_cast<double>(off[banded].stats.time_units),
                     static_cast<long long>(on[banded].tlb.misses), ton / static_cast<double>(on[1].stats.time_units),
                     std::string(on[banded].correct && off[banded].correct ? "yes" : "NO")});
        }
      }
  t.notes = {
      "T_yxz transposes the depth xy planes (n x n x depth, x fastest); T_zyx the depth xz slices of an n x depth x n "
      "matrix, whose rows (z) lie n depth cells apart. Both run the 2D tile-pair kernel with the plane as the "
      "outermost grid index; 'original' is the full grid with the blocks above the diagonal idle (Listing 6), "
      "V1B the triangular grid of Listing 7.",
      "The paper's T_zyx needed a slightly modified V1B; here the same V1B is used, the kernel's row pitch being the "
      "only difference.",
      "Time / V1B time: the run's time with the TLB over the V1B run's at the same order, depth and involution.",
  };
  return t;
}

// The tables' HMM, with the tiles' limit on w.
MachineParams tile_table_machine(const TableOptions& o) {
  const MachineParams m = table_machine(o);
  if (m.w > kMaxTileWidth) throw InputError("-w: at most " + std::to_string(kMaxTileWidth) + " for this table");
  return m;
}

std::vector<std::uint64_t> default_3d_orders() { return {256, 512, 768, 1024, 1280}; }

}  // namespace

report::Table enumeration_3d_table(const TableOptions& o) {
  const MachineParams m = tile_table_machine(o);
  std::vector<std::uint64_t> orders = default_3d_orders();
  if (o.n) {
    // The deepest run has n x n x 4 cells, at most 2^24.
    if (*o.n < 1 || *o.n > 2048)
      throw InputError("-n: the order of the exchanged sides, between 1 and 2048 for this table");
    orders = {*o.n};
  }
  return make_3d(m, orders);
}

std::vector<std::string> enumeration_3d_figure(const std::string& out_dir) {
  const report::Table t = make_3d(MachineParams{}, default_3d_orders());
  write_file(out_dir + "/enumeration-3d.csv", report::to_csv(t));
  // One block per (involution, grid, depth): order, cells per time unit with the TLB, without it.
  std::string data;
  std::vector<std::string> blocks;
  for (const char* inv : {"T_yxz", "T_zyx"})
    for (const char* grid : {"original", "V1B"})
      for (std::uint64_t d : kDepths) {
        const std::string key = std::string(inv) + " " + grid + " depth " + std::to_string(d);
        blocks.push_back(key);
        data += "# " + key + "\n";
        for (const auto& row : t.rows)
          if (std::get<std::string>(row[2]) == inv && std::get<std::string>(row[3]) == grid &&
              std::get<long long>(row[1]) == static_cast<long long>(d)) {
            const double n = static_cast<double>(std::get<long long>(row[0]));
            const double cells = n * n * static_cast<double>(d);
            data += std::to_string(std::get<long long>(row[0])) + " " +
                    report::format_number(cells / static_cast<double>(std::get<long long>(row[7])), 6) + " " +
                    report::format_number(cells / static_cast<double>(std::get<long long>(row[6])), 6) + "\n";
          }
        data += "\n\n";
      }
  write_file(out_dir + "/enumeration-3d.dat", data);
  // Panel p holds blocks 4p .. 4p + 3: original then V1B, each at both depths.
  GnuplotVariables v;
  v.images("output", "enumeration-3d", {"png", "svg"})
      .number("w", MachineParams{}.w)
      .number("k", MachineParams{}.k)
      .number("band", static_cast<long long>(kBand))
      .numbers("depth", {std::to_string(kDepths[0]), std::to_string(kDepths[1])});
  run_gnuplot(out_dir, "enumeration-3d", v, "enumeration-3d");
  return {out_dir + "/enumeration-3d.csv", out_dir + "/enumeration-3d.png", out_dir + "/enumeration-3d.svg"};
}

}  // namespace mmsim::experiments
