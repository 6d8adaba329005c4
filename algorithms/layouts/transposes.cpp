#include "algorithms/layouts/transposes.h"

#include <memory>

#include "algorithms/permutations/permutation_algorithm.h"
#include "models/machines.h"
#include "sim/names.h"

namespace mmsim::layouts {

namespace {
constexpr NameTable<Transpose, 3> kNames{
    {{{Transpose::Crsw, "crsw"}, {Transpose::Srcw, "srcw"}, {Transpose::Drdw, "drdw"}}}};
}  // namespace

std::span<const Transpose> transposes() { return kNames.values(); }
const char* to_string(Transpose t) { return kNames.name(t); }
std::optional<Transpose> transpose_from_name(std::string_view name) { return kNames.parse(name); }

std::optional<std::int64_t> transpose_closed_form(Transpose t, MatrixLayoutKind layout, std::int64_t w,
                                                  std::int64_t l) {
  const std::int64_t free = conflict_free_access(w, l);
  if (layout == MatrixLayoutKind::Raw) return t == Transpose::Drdw ? 2 * free : free + stride_access(w, l);
  if (layout == MatrixLayoutKind::Rap && t != Transpose::Drdw) return 2 * free;
  return std::nullopt;
}

namespace {
struct CellOf {
  std::uint32_t row, col;
};
}  // namespace

TransposeRun run_transpose(Transpose which, const MatrixLayout& layout_in, int latency, const EngineOptions& options) {
  const auto layout = std::make_shared<const MatrixLayout>(layout_in);
  const std::uint32_t w = layout->w();
  MachineParams params;
  params.model = ModelKind::Dmm;
  params.w = static_cast<int>(w);
  params.l = latency;
  const Machine machine(params);
  Engine engine(machine.view(), options);
  const ArrayId a = engine.add_array({"a", Space::Shared, layout->cells()});
  const ArrayId b = engine.add_array({"b", Space::Shared, layout->cells()});
  {
    auto cells = engine.shared(a, 0);
    for (std::uint32_t i = 0; i < w; ++i)
      for (std::uint32_t j = 0; j < w; ++j) cells[layout->address(i, j)] = source_value(std::uint64_t{i} * w + j);
  }

  // Logical cells read and written by thread T(i w + j).
  const auto read_cell = [w, which](ThreadId id) -> CellOf {
    const auto i = static_cast<std::uint32_t>(id / w), j = static_cast<std::uint32_t>(id % w);
    switch (which) {
      case Transpose::Crsw:
        return {i, j};
      case Transpose::Srcw:
        return {j, i};
      case Transpose::Drdw:
        return {(i + j) % w, j};
    }
    return {i, j};
  };
  const auto write_cell = [read_cell](ThreadId id) -> CellOf {
    const CellOf c = read_cell(id);
    return {c.col, c.row};
  };

  Kernel k;
  k.name = to_string(which);
  k.blocks = 1;
  k.threads_per_block = w * w;
  k.registers = 1;
  k.steps = {Access{"read a", Op::Read, a, 0,
                    [layout, read_cell](const Thread& t) -> Address {
                      const CellOf c = read_cell(t.id());
                      return layout->address(c.row, c.col);
                    }},
             Access{"write b", Op::Write, b, 0, [layout, write_cell](const Thread& t) -> Address {
                      const CellOf c = write_cell(t.id());
                      return layout->address(c.row, c.col);
                    }}};
  engine.launch(k);

  TransposeRun run;
  run.stats = engine.stats();
  run.trace = engine.trace();
  const auto out = engine.shared(b, 0);
  run.correct = true;
  for (std::uint32_t x = 0; x < w && run.correct; ++x)
    for (std::uint32_t y = 0; y < w; ++y)
      if (out[layout->address(x, y)] != source_value(std::uint64_t{y} * w + x)) {
        run.correct = false;
        break;
      }
  const auto& rounds = run.stats.rounds;
  const auto mean = [](const RoundStats& r) {
    return r.warps ? static_cast<double>(r.slots) / static_cast<double>(r.warps) : 0.0;
  };
  run.read_max_congestion = rounds.at(0).max_congestion;
  run.write_max_congestion = rounds.at(1).max_congestion;
  run.read_mean_congestion = mean(rounds[0]);
  run.write_mean_congestion = mean(rounds[1]);
  return run;
}

}  // namespace mmsim::layouts
