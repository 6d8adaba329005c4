// `mmsim sweep GRID` (sweep/sweep.h, report/json_reader.h): the input up to its first NUL
// byte is the grid, the rest a journal of an earlier sweep. A grid is parsed as JSON and then
// checked (parse_grid); a journal is read against a grid that was accepted. Bad grids must be
// refused with InputError (std::invalid_argument from the JSON reader alone); journal lines that
// are not rows of the grid are skipped.
#include <algorithm>
#include <stdexcept>

#include "fuzz_target.h"
#include "io/input_error.h"
#include "report/csv.h"
#include "sweep/sweep.h"

MMSIM_FUZZ_TARGET(sweep_grid) {
  using namespace mmsim::sweep;
  const std::string_view all = mmsim::fuzz::text_of(data);
  const std::size_t cut = std::min(all.find('\0'), all.size());
  const std::string_view grid_text = all.substr(0, cut);
  try {
    (void)mmsim::report::parse_json(grid_text);
  } catch (const std::invalid_argument&) {
  }
  SweepGrid grid;
  try {
    grid = parse_grid(grid_text, "fuzz.json");
  } catch (const mmsim::InputError&) {
    return;
  }
  mmsim::fuzz::require(!grid.rows.empty() && grid.rows.size() <= kMaxSweepRows, "a grid of a refused size was read");
  if (cut == all.size()) return;
  const std::string_view journal = all.substr(cut + 1);
  const std::string path = mmsim::fuzz::scratch_file("journal", data.subspan(cut + 1));
  const auto rows = read_journal(path, grid);
  for (const auto& [key, cells] : rows) {
    mmsim::fuzz::require(cells.size() == grid.columns.size(), "a journal row of the wrong width was kept");
    mmsim::fuzz::require(key_of_cells(grid, cells) == key, "a journal row kept under another key");
  }
  // Every line a sweep writes is read back as the same cells.
  std::size_t start = 0;
  while (start < journal.size()) {
    const std::size_t end = std::min(journal.find('\n', start), journal.size());
    if (const auto cells = mmsim::report::split_csv_record(journal.substr(start, end - start)))
      mmsim::fuzz::require(mmsim::report::split_csv_record(mmsim::report::csv_line(*cells)) == cells,
                           "csv_line and split_csv_record disagree");
    start = end + 1;
  }
}
