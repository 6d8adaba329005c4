// [BDS] BMMC permutations on the GPU (bmmc.csv, cuda/bmmc/): each kernel (naive, tile, tile-banks,
// tile-banks-iters) is the registry's `bmmc --kernel K` on the profile's HMM, for the very matrix
// the GPU ran: bmmc-matrices.txt records each one (mmsim gpu bmmc draws them from one generator
// across sizes, so they cannot be drawn again from the seed); each goes to the registry as a value.
// tile-banks-iters takes the simulator's default iterations per pass, min(3, the free bits), as the
// GPU's plan does.
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "algorithms/bmmc/entries.h"
#include "algorithms/bmmc/f2.h"
#include "algorithms/bmmc/kernels.h"
#include "algorithms/bmmc/tiled.h"
#include "io/input_file.h"
#include "io/quote.h"
#include "predict/validate/csv_rows.h"
#include "predict/validate/family.h"

namespace mmsim::predict::validate {

namespace {

// "# 2^B NAME" opens a matrix's block; the lines up to the next '#' line are its text.
std::map<std::string, std::string> read_matrices(const std::filesystem::path& file) {
  InputFile input("--measured", file.string(), std::uint64_t{1} << 28, "a matrices file");
  std::istream& in = input.stream();
  std::map<std::string, std::string> out;
  std::string line, key;
  while (std::getline(in, line)) {
    if (line.rfind("# 2^", 0) == 0) {
      key = line.substr(2);
      out[key];
    } else if (line.rfind('#', 0) == 0) {
      key.clear();
    } else if (!key.empty()) {
      out[key] += line + "\n";
    }
  }
  return out;
}

// The GPU's launches of kernel `kind` for f (cuda/bmmc/plan.h's passes, cuda/bmmc/kernels.cu's
// blocks) as tile benches' shapes for the floor (each reads and writes the n words): the naive kernel, blocks of 256
// threads, each thread's one load before the block's barrier; a tiled pass, blocks of a tile's cells, each thread's
// 2^iters loads issued together before the barrier (k_tiled), 384 bytes of static shared memory
// beside the tiles.
std::vector<TileFloor::Launch> gpu_launches(const f2::Bmmc& f, bmmc::KernelKind kind, double sms, double l2_bytes) {
  const auto n = static_cast<double>(std::uint64_t{1} << f.bits());
  const bool beyond = 2 * 4 * n > l2_bytes;  // in and out
  const double words = 2 * n / sms;
  const auto waves = [&](std::uint64_t blocks, std::uint32_t threads, std::uint64_t shared) {
    return std::ceil(static_cast<double>(blocks) / (sms * resident_blocks(threads, shared)));
  };
  if (kind == bmmc::KernelKind::Naive) {
    constexpr std::uint32_t kThreads = 256;
    return {{waves((std::uint64_t{1} << f.bits()) / kThreads, kThreads, 256), 1, words, beyond}};
  }
  std::vector<TileFloor::Launch> out;
  for (const f2::Bmmc& factor : f2::tiled_factors(f, 5)) {
    const int free = bmmc::tile_layout(factor, 5, 0).free_bits();
    const int iters = kind == bmmc::KernelKind::TileBanksIters ? std::min(bmmc::kDefaultIters, free) : 0;
    const bmmc::TileLayout lay = bmmc::tile_layout(factor, 5, iters);
    const std::uint64_t shared = lay.shared_cells() * 4 + 384;
    out.push_back(
        {waves(lay.blocks(), lay.threads_per_block(), shared), static_cast<double>(1 << iters), words, beyond});
  }
  return out;
}

}  // namespace

std::vector<MeasuredRun> read_bmmc(const std::filesystem::path& dir, const Selection& s, const predict::GpuProfile& p) {
  const auto rows = read_csv_rows(dir / "bmmc.csv", {"log2_n", "n", "permutation", "kernel", "median_ms", "correct"});
  if (s.type != "float") return {};  // the kernels move 4-byte words
  std::map<std::string, std::string> matrices;
  std::map<std::string, std::pair<BitMatrixValue, f2::Bmmc>> parsed;  // each matrix a row runs, read once
  // The measured folder's own tile benches only: they time the GPU's memory too, which a sibling
  // GPU of the same SM need not share (Selection::instructions is for the SM's own costs).
  const std::optional<predict::TileCosts> tiles = tile_costs(dir, p);
  bool matrices_read = false;
  std::vector<MeasuredRun> out;
  for (const CsvRow& r : rows) {
    MeasuredRun m = timed_row(r, "bmmc", "BMMC", "median_ms");
    m.kernel = r.text("kernel");
    m.permutation = r.text("permutation");
    m.type = "float";
    m.n = r.integer("n");
    if (m.n < s.min_n || m.n > s.max_n) continue;
    if (!matrices_read) matrices = read_matrices(dir / "bmmc-matrices.txt"), matrices_read = true;
    const std::string key = "2^" + r.text("log2_n") + " " + m.permutation;
    const auto it = matrices.find(key);
    if (it == matrices.end()) throw r.error("bmmc-matrices.txt records no matrix " + quote(key));
    auto [value, fresh] = parsed.try_emplace(key);
    if (fresh) {
      value->second.second = f2::parse_bmmc(it->second, "bmmc-matrices.txt: " + key);
      value->second.first = bmmc::matrix_value(value->second.second, key);
    }
    m.algorithm = "bmmc";
    m.params = {{"matrix", value->second.first}, {"kernel", m.kernel}};
    const std::optional<bmmc::KernelKind> kind = bmmc::parse_kernel(m.kernel);
    if (!kind) throw r.error("unknown kernel " + quote(m.kernel));
    if (tiles)
      m.tile_floor = TileFloor{
          *tiles, gpu_launches(value->second.second, *kind, p.machine.k, static_cast<double>(p.memory.cache_bytes)),
          static_cast<double>(p.gpu.sm_clock_khz)};
    // tile-banks and tile-banks-iters make the same accesses, so the model prices them the same;
    // the GPU runs tile-banks (one tile per block, a barrier between its read and its write) up to
    // 1.6x slower: too few bytes in flight per SM, which no count sees. The tile benches' floor
    // (above) prices that in part; the rows stay listed until it prices it whole.
    if (m.kernel == "tile-banks")
      m.known_failure =
          "one tile per block: too few bytes in flight per SM between barriers; the counts equal "
          "tile-banks-iters', which the GPU runs up to 1.6x faster";
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace mmsim::predict::validate
