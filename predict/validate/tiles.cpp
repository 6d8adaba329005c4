// The tile microbenchmarks (instructions-tiles.csv, `mmsim gpu instructions`) fitted for the floor
// under the tiled kernels (predict/tile_cost.h, TileFloor): the out-of-place benches only; the
// in-place ones, which cost an H100 the same (docs/prediction.md), are there to compare.
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "predict/tile_cost.h"
#include "predict/validate/csv_rows.h"
#include "predict/validate/family.h"

namespace mmsim::predict::validate {

std::optional<predict::TileCosts> tile_costs(const std::filesystem::path& dir, const predict::GpuProfile& p) {
  const std::filesystem::path file = dir / "instructions-tiles.csv";
  if (!std::filesystem::exists(file)) return std::nullopt;
  if (p.gpu.sm_clock_khz <= 0 || p.machine.k <= 0)
    throw std::invalid_argument("the profile gives no SM clock or SM count: the tile term needs both");
  std::vector<predict::TileSample> samples;
  for (const CsvRow& r : read_csv_rows(file, {"bench", "loads", "blocks_per_sm", "mib", "in_place", "ms", "correct"})) {
    if (r.text("correct") != "yes") throw r.error("a tile microbenchmark whose output was wrong");
    if (r.text("in_place") != "no" && r.text("in_place") != "yes") throw r.error("in_place must be yes or no");
    if (r.text("in_place") == "yes") continue;
    predict::TileBench b;
    b.loads = static_cast<std::uint32_t>(r.integer("loads"));
    b.blocks_per_sm = static_cast<std::uint32_t>(r.integer("blocks_per_sm"));
    b.mib = static_cast<std::uint32_t>(r.integer("mib"));
    // A file of the first tile benches has no column of threads: their blocks were kTileThreads.
    if (r.fields.count("threads_per_block") != 0)
      b.threads = static_cast<std::uint32_t>(r.integer("threads_per_block"));
    if (b.loads == 0 || b.blocks_per_sm == 0 || b.mib == 0 || b.threads == 0 || b.words() % b.tile_words() != 0)
      throw r.error("loads, blocks_per_sm, mib and threads_per_block must be positive, the array whole tiles");
    samples.push_back(predict::tile_sample(b, p.machine.k, static_cast<double>(p.memory.cache_bytes),
                                           r.number("ms") * p.gpu.sm_clock_khz));
  }
  try {
    return predict::fit_tile_costs(samples);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(file.string() + ": " + e.what());
  }
}

}  // namespace mmsim::predict::validate
