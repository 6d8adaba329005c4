// [GL] tile enumerations on the GPU (enumeration.csv and enumeration_3d.csv, cuda/enumeration/):
// each kernel is the registry's transpose-ip-*, transpose-oop-* or transpose3d-* of the same shape
// (band and region as the GPU ran them) on the profile's HMM, float cells.
#include <stdexcept>

#include "io/quote.h"
#include "predict/validate/csv_rows.h"
#include "predict/validate/family.h"

namespace mmsim::predict::validate {

namespace {

void read_one(const std::filesystem::path& csv, bool three_d, const Selection& s, std::vector<MeasuredRun>& out) {
  std::vector<std::string> need{"kind", "algorithm", "rows", "cols", "band", "region", "median_ms", "status"};
  if (three_d) need.push_back("depth");
  for (const CsvRow& r : read_csv_rows(csv, need)) {
    MeasuredRun m = timed_row(r, three_d ? "enumeration_3d" : "enumeration", "enumeration", "median_ms");
    const std::string kind = r.text("kind"), variant = r.text("algorithm");
    const std::uint64_t rows = r.integer("rows"), cols = r.integer("cols"), band = r.integer("band"),
                        region = r.integer("region"), depth = three_d ? r.integer("depth") : 1;
    m.type = "float";
    m.n = rows * cols * depth;
    if (m.n < s.min_n || m.n > s.max_n) continue;
    if (three_d) {
      m.algorithm = "transpose3d-" + kind + "-" + variant;
      m.params = {{"order", static_cast<std::int64_t>(rows)}, {"depth", static_cast<std::int64_t>(depth)}};
      m.permutation = std::to_string(rows) + " x " + std::to_string(rows) + " x " + std::to_string(depth);
    } else if (kind == "in-place") {
      m.algorithm = "transpose-ip-" + variant;
      m.params = {{"order", static_cast<std::int64_t>(rows)}};
      m.permutation = std::to_string(rows) + " x " + std::to_string(cols);
    } else if (kind == "out-of-place") {
      m.algorithm = "transpose-oop-" + variant;
      m.params = {{"rows", static_cast<std::int64_t>(rows)}, {"cols", static_cast<std::int64_t>(cols)}};
      m.permutation = std::to_string(rows) + " x " + std::to_string(cols);
    } else {
      throw r.error("kind must be in-place or out-of-place (got " + quote(kind) + ")");
    }
    m.kernel = kind + " " + variant;
    // V1B visits the same tiles as the naive grid, so the machine counts the same accesses; its
    // blocks first decode their tile pair (a square root and band arithmetic, [GL] Sect. 5.1),
    // which the GPU pays and no count sees.
    if (variant == "v1b")
      m.known_failure =
          "each block decodes its tile pair (square root, band arithmetic) before moving it: no count sees the "
          "arithmetic, so V1B is priced like the naive grid it measures slower than";
    if (band > 0) m.params.set("band", static_cast<std::int64_t>(band));
    if (region > 0) m.params.set("region", static_cast<std::int64_t>(region));
    out.push_back(std::move(m));
  }
}

}  // namespace

std::vector<MeasuredRun> read_enumeration(const std::filesystem::path& dir, const Selection& s,
                                          const predict::GpuProfile&) {
  if (s.type != "float") return {};  // the kernels move floats
  std::vector<MeasuredRun> out;
  read_one(dir / "enumeration.csv", false, s, out);
  if (std::filesystem::exists(dir / "enumeration_3d.csv")) read_one(dir / "enumeration_3d.csv", true, s, out);
  return out;
}

}  // namespace mmsim::predict::validate
