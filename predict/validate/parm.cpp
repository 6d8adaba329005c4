// [BDS] Sect. 7's sorting network on the GPU (parm-gpu.csv, cuda/bmmc/parm_*): each variant is the
// registry's `parm-sort` on the profile's HMM, `--direct` for direct and `--kernel VARIANT` for the
// others, as `mmsim gpu parm` runs the simulator's own flattened network. A sorting network's
// accesses do not depend on the keys, so the GPU's fresh keys and the simulator's seed move the
// same cells (`mmsim gpu parm` checks that the GPU's launch count is the simulator's).
#include <map>
#include <string>

#include "algorithms/bmmc/kernels.h"
#include "predict/validate/csv_rows.h"
#include "predict/validate/family.h"

namespace mmsim::predict::validate {

namespace {

// The network makes about log^2 n passes over the keys. Exact, a variant at 2^20 took 4 to 6 CPU
// minutes to simulate on the GPU machine's host (twice: warm, then counted); sampled (validate's
// default, predict/sampled.h) the program runs once and the L2 and DRAM serve a sample of its
// rows: 10 to 19 CPU seconds a variant at 2^18 on the development machine, five times that at 2^20
// (docs/prediction.md, "Large validations"). Rows above 2^20 (2^24: an hour or more) stay in the table as not
// simulated; `mmsim validate --families parm --min-n 4096 --max-n 1048576` predicts the rest.
constexpr std::uint64_t kLargestSimulated = std::uint64_t{1} << 20;

}  // namespace

std::vector<MeasuredRun> read_parm(const std::filesystem::path& dir, const Selection& s, const predict::GpuProfile&) {
  const auto rows = read_csv_rows(dir / "parm-gpu.csv", {"n", "variant", "launches", "median_ms", "correct"});
  if (s.type != "float") return {};  // the GPU sorts 32-bit keys
  std::vector<MeasuredRun> out;
  for (const CsvRow& r : rows) {
    MeasuredRun m = timed_row(r, "parm-gpu", "parm sort", "median_ms");
    m.kernel = r.text("variant");
    m.permutation = m.kernel;  // the counts file's name for the run
    m.type = "float";
    m.n = r.integer("n");
    ParamValues params{{"n", static_cast<std::int64_t>(m.n)}};
    if (m.kernel == "direct")
      params.set("direct", true);
    else if (bmmc::parse_kernel(m.kernel))
      params.set("kernel", m.kernel);
    else
      throw r.error("variant must be direct, naive, tile, tile-banks or tile-banks-iters");
    if (m.n < s.min_n || m.n > s.max_n) continue;
    if (m.n <= kLargestSimulated) {  // else algorithm "": shown, not simulated
      m.algorithm = "parm-sort";
      m.params = std::move(params);
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace mmsim::predict::validate
