// The one CSV reader (report/csv.h): the whole input is a CSV with a header. One that is read has
// as many fields in every row as in its header, and each row written back by the writer splits into
// the same fields; any other input must be refused with CsvError.
#include <sstream>

#include "fuzz_target.h"
#include "report/csv.h"

MMSIM_FUZZ_TARGET(csv_table) {
  std::istringstream in{std::string(mmsim::fuzz::text_of(data))};
  try {
    const mmsim::report::CsvTable t(in, "fuzz.csv", {.max_record_chars = 4096, .max_rows = 1000});
    for (const auto& row : t.rows()) {
      mmsim::fuzz::require(row.fields().size() == t.columns().size(), "a row of another width was read");
      mmsim::fuzz::require(mmsim::report::split_csv_record(mmsim::report::csv_line(row.fields())) == row.fields(),
                           "csv_line and split_csv_record disagree on a row that was read");
    }
  } catch (const mmsim::report::CsvError& e) {
    mmsim::fuzz::require(std::string(e.what()).find('\n') == std::string::npos, "a message of more than one line");
  }
}
