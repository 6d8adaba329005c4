// NMI Table III on the GPU (rap-t3.csv, experiments/gpu/rap_table.cpp): one block of w^2 = 1024 threads moves
// one 32 x 32 matrix in its SM's shared memory, thread T(32 i + j) one cell, as the DMM of [NMI]
// Sect. VI; the GPU times many transposes inside the kernel and reports ns per transpose. The
// registry's crsw / srcw / drdw under the same layout is the same program on a DMM of w = 32, so
// the run is priced by its shared-memory time units alone (no launch, no global memory).
#include <stdexcept>

#include "predict/validate/csv_rows.h"
#include "predict/validate/family.h"
#include "report/table.h"

namespace mmsim::predict::validate {

namespace {

// ras and rap draw a layout per block from seeds 1, 2, ... (the GPU's default seed, as the
// simulator's tables): the run is averaged over this many of them.
constexpr unsigned kRandomLayoutSeeds = 32;

}  // namespace

std::vector<MeasuredRun> read_rap(const std::filesystem::path& dir, const Selection& s, const predict::GpuProfile& p) {
  // The CSV's snake_case key of the GPU's column (report::column_key).
  const std::string ns_column = report::column_key("GPU ns (" + s.type + ", median)");
  const auto rows = read_csv_rows(dir / "rap-t3.csv", {"transpose", "layout", ns_column, "correct"});
  std::vector<MeasuredRun> out;
  for (const CsvRow& r : rows) {
    // The GPU's ns per transpose, as ms.
    MeasuredRun m = timed_row(r, "rap-t3", "shared transpose", ns_column, 1e-6);
    m.kernel = r.text("transpose");
    m.permutation = r.text("layout");
    m.type = s.type;
    m.n = static_cast<std::uint64_t>(p.machine.w) * static_cast<std::uint64_t>(p.machine.w);
    m.algorithm = m.kernel;
    m.params = {{"layout", m.permutation}, {"seed", std::int64_t{1}}};
    m.seeds = m.permutation == "ras" || m.permutation == "rap" ? kRandomLayoutSeeds : 1;
    m.pricing = Pricing::SharedOnly;
    m.measured_as = "ns per transpose (global timer, median over blocks) / 10^6";
    // The rows the simulator found conflict-free (its congestion columns, written beside the GPU's
    // times) take 64 time units, against 100 cycles measured on both GPUs: each transpose has a
    // fixed cost no time unit counts.
    const auto it_r = r.fields.find("read_max"), it_w = r.fields.find("write_max");
    if (it_r != r.fields.end() && it_w != r.fields.end() && it_r->second == "1" && it_w->second == "1")
      m.known_failure =
          "conflict-free: a fixed cost per transpose (block barrier, index arithmetic; about 40 cycles) that no "
          "time unit counts outweighs the 64 time units";
    if (s.type == "double")
      m.known_failure +=
          std::string(m.known_failure.empty() ? "" : "; ") +
          "doubles: the DMM's w banks hold one 4-byte word each, the GPU's hold 8-byte elements in two; the "
          "simulated congestion is the float layout's";
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace mmsim::predict::validate
