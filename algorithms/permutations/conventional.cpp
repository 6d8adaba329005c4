#include "algorithms/permutations/conventional.h"

#include "algorithms/closed_forms.h"
#include "sim/workers.h"

namespace mmsim {

bool holds_permutation(std::span<const Word> b, const std::vector<Word>& p, unsigned threads) {
  if (b.size() != p.size()) return false;
  // Pieces on the pool, each with a verdict of its own, written once at its end.
  WorkerPool pool(p.size() < (std::size_t{1} << 18) ? 1 : resolve_threads(threads));
  std::vector<char> wrong(8 * std::size_t{pool.threads()}, 0);
  pool.run(wrong.size(), [&](std::size_t c) {
    const std::size_t first = p.size() * c / wrong.size(), end = p.size() * (c + 1) / wrong.size();
    bool bad = false;
    for (std::size_t i = first; i < end; ++i) bad |= b[p[i]] != source_value(i);
    wrong[c] = bad;
  });
  return std::none_of(wrong.begin(), wrong.end(), [](char x) { return x != 0; });
}

namespace {

void check_conventional(const MachineParams& m, const PermutationInput& in) {
  if (m.model != ModelKind::Hmm) throw InputError("--model: the permutation algorithms run on the HMM");
  const std::uint64_t n = in.perm->size();
  if (n % static_cast<std::uint64_t>(m.w) != 0)
    throw InputError("n: must be a multiple of w (n = " + std::to_string(n) + ", w = " + std::to_string(m.w) + ")");
}

// One thread per element, one warp per block: the conventional algorithms use no shared memory, so
// the block size changes nothing in their time.
Kernel one_thread_per_element(std::string name, std::uint64_t n, int w) {
  Kernel k;
  k.name = std::move(name);
  k.threads_per_block = static_cast<std::uint32_t>(w);
  k.blocks = n / static_cast<std::uint64_t>(w);
  k.registers = 2;
  return k;
}

// Sets up a (source values), the index array and b on a fresh engine, runs the kernel, checks b.
RunReport run_conventional(const Machine& machine, const PermutationInput& in, const EngineOptions& opt,
                           bool destination_designated) {
  const Permutation& perm = *in.perm;
  const std::uint64_t n = perm.size();
  const int w = machine.params().w;
  Engine engine(machine.view(), opt);
  const ArrayId a = engine.add_array({"a", Space::Global, n});
  // The GPU kernels (cuda/gpu.cu) hold the index array as uint32. The kernel only reads it, so the
  // engine reads P (or its inverse) where it is, without a copy: at n = 2^28 a copy is 1 GiB.
  const std::vector<Word> q = destination_designated ? std::vector<Word>{} : inverse(perm.p, opt.threads);
  const ArrayId index = engine.add_input_array({destination_designated ? "p" : "q", Space::Global, n, 4},
                                               destination_designated ? perm.p : q);
  const ArrayId b = engine.add_array({"b", Space::Global, n});
  const std::span<Word> source = engine.global(a);
  for (std::uint64_t i = 0; i < n; ++i) source[i] = source_value(i);

  constexpr int kValue = 0, kIndex = 1;
  const ThreadIndexAddress self;
  const RegisterAddress by_index{kIndex};
  Kernel k = one_thread_per_element(destination_designated ? "d-designated" : "s-designated", n, w);
  if (destination_designated) {
    k.steps = {Access{"read a", Op::Read, a, kValue, self}, Access{"read p", Op::Read, index, kIndex, self},
               Access{"write b", Op::Write, b, kValue, by_index}};
  } else {
    k.steps = {Access{"read q", Op::Read, index, kIndex, self}, Access{"read a", Op::Read, a, kValue, by_index},
               Access{"write b", Op::Write, b, kValue, self}};
  }
  engine.launch(k);

  RunReport run = collect(engine);
  run.correct = holds_permutation(engine.global(b), perm.p, opt.threads);
  const auto d = static_cast<std::int64_t>(
      distribution(destination_designated ? perm.p : q, static_cast<std::uint64_t>(w), opt.threads));
  run.predicted_time_units = closed_form::conventional(d, static_cast<std::int64_t>(n), w, machine.params().L);
  return run;
}

}  // namespace

PermutationAlgorithm d_designated() {
  return {"d-designated", "conventional permutation, destination designated: b[p[i]] <- a[i]", "KNI Sect. 4",
          check_conventional, [](const Machine& m, const PermutationInput& in, const EngineOptions& o) {
            return run_conventional(m, in, o, true);
          }};
}

PermutationAlgorithm s_designated() {
  return {"s-designated", "conventional permutation, source designated: b[i] <- a[q[i]], q = P^-1", "KNI Sect. 4",
          check_conventional, [](const Machine& m, const PermutationInput& in, const EngineOptions& o) {
            return run_conventional(m, in, o, false);
          }};
}

}  // namespace mmsim
