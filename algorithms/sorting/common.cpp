#include "algorithms/sorting/common.h"

#include "io/input_error.h"

namespace mmsim::sorting {

void load(MatrixDmm& g, Region r, std::uint64_t m, const std::vector<Word>& input) {
  const auto w = static_cast<std::uint64_t>(g.w());
  auto cells = g.cells();
  for (std::uint64_t i = 0; i < w; ++i)
    for (std::uint64_t j = 0; j < m; ++j) cells[g.at(r, i, j)] = input[i * m + j];
}

bool holds(MatrixDmm& g, Region r, std::uint64_t m, const std::vector<Word>& expected) {
  const auto w = static_cast<std::uint64_t>(g.w());
  auto cells = g.cells();
  for (std::uint64_t i = 0; i < w; ++i)
    for (std::uint64_t j = 0; j < m; ++j)
      if (cells[g.at(r, i, j)] != expected[i * m + j]) return false;
  return true;
}

SortingRun finish_run(std::string algorithm, std::string method, int w, std::uint64_t m,
                      std::shared_ptr<const MatrixDmm> machine, bool correct) {
  SortingRun run;
  run.algorithm = std::move(algorithm);
  run.method = std::move(method);
  run.w = w;
  run.m = m;
  run.summary = summarize(machine->stats());
  run.machine = std::move(machine);
  run.correct = correct;
  return run;
}

void check_shape(int w, std::uint64_t m) {
  const auto pow2 = [](std::uint64_t x) { return x != 0 && (x & (x - 1)) == 0; };
  if (w < 1 || w > 1024 || !pow2(static_cast<std::uint64_t>(w)))
    throw InputError("-w: must be a power of two between 1 and 1024");
  if (m < 1 || m > 65536 || !pow2(m)) throw InputError("-m: must be a power of two between 1 and 65536");
  if (static_cast<std::uint64_t>(w) * m > (std::uint64_t{1} << 22))
    throw InputError("-m: w * m must be at most 2^22 = 4194304");
}

}  // namespace mmsim::sorting
