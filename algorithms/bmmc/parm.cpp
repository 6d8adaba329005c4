#include "algorithms/bmmc/parm.h"

#include <algorithm>
#include <stdexcept>

#include "algorithms/bmmc/tiled.h"
#include "io/input_error.h"

namespace mmsim::bmmc {

using f2::BitVector;

std::vector<Word> parm_reference(BitVector mask, const std::function<std::vector<Word>(std::vector<Word>)>& f,
                                 const std::vector<Word>& xs) {
  std::vector<Word> part[2];
  for (std::size_t i = 0; i < xs.size(); ++i) part[f2::dot(i, mask)].push_back(xs[i]);
  part[0] = f(std::move(part[0]));
  part[1] = f(std::move(part[1]));
  std::vector<Word> out(xs.size());
  std::size_t next[2] = {0, 0};
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const int s = f2::dot(i, mask);
    out[i] = part[s][next[s]++];
  }
  return out;
}

namespace {

std::vector<Word> vcolumn_ref(int n, std::vector<Word> xs) {
  if (n == 0) return xs;
  if (n == 1) {
    if (xs[1] < xs[0]) std::swap(xs[0], xs[1]);
    return xs;
  }
  return parm_reference(
      3, [n](std::vector<Word> s) { return vcolumn_ref(n - 1, std::move(s)); }, xs);
}

std::vector<Word> merge_ref(int n, std::vector<Word> xs) {
  if (n == 0) return xs;
  const auto ys = vcolumn_ref(n, std::move(xs));
  return parm_reference(
      BitVector{1} << (n - 1), [n](std::vector<Word> s) { return merge_ref(n - 1, std::move(s)); }, ys);
}

// Emits the stages of one nested expression acting on every contiguous chunk of 2^j cells of an
// n-bit array: a permutation of the low j index bits leaves each chunk in place.
class Flattener {
 public:
  explicit Flattener(int n) : n_(n) {}

  void sort(int j) {
    if (j == 0) return;
    parm(j, 1, [this](int i) { sort(i); });
    merge(j);
  }
  void merge(int j) {
    if (j == 0) return;
    vcolumn(j);
    parm(j, BitVector{1} << (j - 1), [this](int i) { merge(i); });
  }
  void vcolumn(int j) {
    if (j == 0) return;
    if (j == 1) {
      stages_.push_back({ParmStage::Kind::CompareExchange, {}});
      return;
    }
    parm(j, 3, [this](int i) { vcolumn(i); });
  }

  std::vector<ParmStage> take() { return std::move(stages_); }

 private:
  template <typename Inner>
  void parm(int j, BitVector mask, Inner inner) {
    const f2::Bmmc a = lift(f2::parm_matrix(j, mask));
    permute(a);
    inner(j - 1);  // both halves of every chunk: the chunks of 2^(j-1) cells
    permute(f2::inverse(a));
  }

  // diag(A, I): A acts on the low j bits, the chunk index above them is kept.
  f2::Bmmc lift(const f2::Bmmc& small) const {
    f2::BitMatrix big = f2::BitMatrix::identity(n_);
    for (int i = 0; i < small.bits(); ++i) big.set_row(i, small.a.row(i));
    return {big, small.c};
  }

  // Fuses with a preceding permutation (bmmc f o bmmc g = bmmc (f o g)) and drops identities.
  void permute(const f2::Bmmc& f) {
    f2::Bmmc g = f;
    if (!stages_.empty() && stages_.back().kind == ParmStage::Kind::Permute) {
      g = f2::compose(f, stages_.back().perm);
      stages_.pop_back();
    }
    if (!(g == f2::identity(n_))) stages_.push_back({ParmStage::Kind::Permute, g});
  }

  int n_;
  std::vector<ParmStage> stages_;
};

// The compare-exchange column: thread v reads the cells of virtual positions v and v ^ 1 and
// writes the minimum (v even) or maximum (v odd) to virtual position v; `where` maps a virtual
// position to its cell (the identity unless the array is left un-permuted).
Kernel compare_exchange_kernel(const f2::Bmmc& where, int w, ArrayId src, ArrayId dst) {
  Kernel k;
  k.name = "compare-exchange";
  k.threads_per_block = static_cast<std::uint32_t>(w);
  k.blocks = (std::uint64_t{1} << where.bits()) / static_cast<std::uint64_t>(w);
  k.registers = 2;
  k.steps = {
      Access{"read own", Op::Read, src, 0, [where](const Thread& t) -> Address { return where.apply(t.id()); }},
      Access{"read partner", Op::Read, src, 1,
             [where](const Thread& t) -> Address { return where.apply(t.id() ^ 1u); }},
      Compute{[](const Thread& t) {
        const Word a = t.reg(0), b = t.reg(1);
        t.set(0, (t.id() & 1u) ? std::max(a, b) : std::min(a, b));
      }},
      Access{"write", Op::Write, dst, 0, [where](const Thread& t) -> Address { return where.apply(t.id()); }},
  };
  return k;
}

}  // namespace

std::vector<Word> parm_sort_reference(int n, std::vector<Word> xs) {
  if (n == 0) return xs;
  const auto ys = parm_reference(
      1, [n](std::vector<Word> s) { return parm_sort_reference(n - 1, std::move(s)); }, xs);
  return merge_ref(n, ys);
}

std::vector<ParmStage> parm_sort_stages(int n) {
  if (n < 1 || n > f2::kMaxBits) throw std::invalid_argument("parm_sort_stages: n must be in [1, 64]");
  Flattener fl(n);
  fl.sort(n);
  return fl.take();
}

std::vector<Word> apply_stages(const std::vector<ParmStage>& stages, std::vector<Word> xs) {
  std::vector<Word> out(xs.size());
  for (const auto& s : stages) {
    if (s.kind == ParmStage::Kind::Permute) {
      for (std::size_t x = 0; x < xs.size(); ++x) out[s.perm.apply(x)] = xs[x];
    } else {
      for (std::size_t x = 0; x < xs.size(); x += 2) {
        out[x] = std::min(xs[x], xs[x + 1]);
        out[x + 1] = std::max(xs[x], xs[x + 1]);
      }
    }
    std::swap(xs, out);
  }
  return xs;
}

ParmSortRun run_parm_sort(const Machine& machine, int n, const BmmcOptions& o, bool direct, std::uint64_t seed,
                          const EngineOptions& eo) {
  const MachineParams& m = machine.params();
  if (n < 1 || n > f2::kMaxSimulatedBits)
    throw InputError("-n: the parm sort takes 2^1 to 2^" + std::to_string(f2::kMaxSimulatedBits) + " keys");
  const std::vector<ParmStage> stages = parm_sort_stages(n);
  check_bmmc(m, f2::identity(n), o);
  std::uint64_t cells = 0;
  if (!direct)
    for (const auto& s : stages)
      if (s.kind == ParmStage::Kind::Permute) cells = std::max(cells, shared_cells_needed(m, s.perm, o));

  const std::uint64_t size = std::uint64_t{1} << n;
  Engine engine(machine.view(), eo);
  ArrayId cur = engine.add_array({"x", Space::Global, size});
  ArrayId other = engine.add_array({"y", Space::Global, size});
  const ArrayId mid = engine.add_array({"mid", Space::Global, size});
  const ArrayId tile = cells > 0 ? engine.add_array({"tile", Space::Shared, cells}) : -1;
  Rng rng(seed);
  std::vector<Word> keys(size);
  for (auto& k : keys) k = static_cast<Word>(rng.next());
  std::copy(keys.begin(), keys.end(), engine.global(cur).begin());

  ParmSortRun run;
  f2::Bmmc placed = f2::identity(n);  // direct: virtual position -> cell is placed^-1
  for (const auto& s : stages) {
    if (s.kind == ParmStage::Kind::Permute) {
      ++run.permutations;
      if (direct) {
        placed = f2::compose(s.perm, placed);
        continue;
      }
      run.passes += static_cast<int>(launch_bmmc(engine, m, s.perm, o, cur, other, mid, tile).size());
    } else {
      ++run.compare_stages;
      engine.launch(compare_exchange_kernel(direct ? f2::inverse(placed) : f2::identity(n), m.w, cur, other));
    }
    std::swap(cur, other);
  }
  run.stats = engine.stats();
  run.trace = engine.trace();
  const auto out = engine.global(cur);
  std::vector<Word> expect = keys;
  std::sort(expect.begin(), expect.end());
  run.sorted = std::equal(out.begin(), out.end(), expect.begin());
  return run;
}

}  // namespace mmsim::bmmc
