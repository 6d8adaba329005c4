// The one CSV writer and reader (report/csv.h): cells quoted only when they must be, read back as
// written, records across lines, malformed records refused naming their line, fields by column name.
#include <doctest/doctest.h>

#include <sstream>

#include "report/csv.h"
#include "report/table.h"

using namespace mmsim::report;

namespace {

// The message a reader throws on `text`, or "" when it reads it.
std::string table_error(const std::string& text, CsvLimits limits = {}) {
  std::istringstream in(text);
  try {
    CsvTable t(in, "t.csv", limits);
  } catch (const CsvError& e) {
    return e.what();
  }
  return "";
}

std::vector<CsvRecord> records(const std::string& text) {
  std::istringstream in(text);
  CsvReader reader(in, "r.csv");
  std::vector<CsvRecord> out;
  for (CsvRecord r; reader.next(r);) out.push_back(r);
  return out;
}

}  // namespace

TEST_CASE("a plain cell is written as it is, and a cell with a comma, a quote or a line break is quoted") {
  CHECK(csv_cell("d-designated") == "d-designated");
  CHECK(csv_cell("") == "");
  CHECK(csv_cell("b,c") == "\"b,c\"");
  CHECK(csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_cell("two\nlines") == "\"two\nlines\"");
  CHECK(csv_cell("cr\r") == "\"cr\r\"");
  CHECK(csv_line({"a", "", "b,c", "say \"hi\"", "x"}) == "a,,\"b,c\",\"say \"\"hi\"\"\",x");
}

TEST_CASE("the table writer quotes through the same cell rule") {
  Table t;
  t.columns = {"device", "ms"};
  t.add_row({std::string("GPU (9.0, 132 SMs)"), 1.5});
  t.add_row({std::string("plain"), std::monostate{}});
  // Every CSV ends with the build that made it (report/table.h): the version and commit columns.
  const std::string csv = to_csv(t);
  CHECK(csv.rfind("device,ms,mmsim_version,mmsim_commit\n\"GPU (9.0, 132 SMs)\",1.5,", 0) == 0);
  CHECK(csv.find("\nplain,,") != std::string::npos);
}

TEST_CASE("every line the writer makes is split back into the same cells") {
  const std::vector<std::vector<std::string>> rows{
      {"a", "", "b,c", "say \"hi\"", "x"}, {""}, {"", ""}, {"\"", ",", "\"\""}, {"two\nlines", "end"}};
  for (const auto& cells : rows) CHECK(split_csv_record(csv_line(cells)) == cells);
}

TEST_CASE("a torn or malformed record is not split, and says why") {
  std::string why;
  CHECK_FALSE(split_csv_record("a,\"b", &why).has_value());
  CHECK(why == "field 2: its opening double quote is never closed");
  CHECK_FALSE(split_csv_record("a,\"b\"c", &why).has_value());
  CHECK(why == "field 2: text after its closing double quote");
  CHECK_FALSE(split_csv_record("a,b\"c", &why).has_value());
  CHECK(why == "field 2: a double quote inside a field that does not begin with one");
  CHECK_FALSE(split_csv_record("a\nb", &why).has_value());
}

TEST_CASE("the reader counts lines, reads CRLF, a quoted line break and a last line without its break") {
  const auto r = records("h1,h2\r\n\"x\ny\",2\n\nlast,3");
  REQUIRE(r.size() == 4);
  CHECK(r[0].fields == std::vector<std::string>{"h1", "h2"});
  CHECK(r[1].fields == std::vector<std::string>{"x\ny", "2"});
  CHECK(r[1].line == 2);
  CHECK(r[2].blank());
  CHECK(r[2].line == 4);  // the quoted line break counted
  CHECK(r[3].fields == std::vector<std::string>{"last", "3"});
  CHECK(r[3].line == 5);
  CHECK(records("").empty());
  CHECK(records("a\n").size() == 1);
}

TEST_CASE("a malformed record is refused naming the line it begins on") {
  CHECK(table_error("a,b\n1,2\n3,\"4\n") == "t.csv, line 3: field 2: its opening double quote is never closed");
  CHECK(table_error("a,b\n1,2\n3,\"4\"x\n") == "t.csv, line 3: field 2: text after its closing double quote");
  CHECK(table_error("a,b\n1,2\n3\n") == "t.csv, line 3: 1 fields, the header has 2");
  CHECK(table_error("a,b\n1,2,3\n") == "t.csv, line 2: 3 fields, the header has 2");
  CHECK(table_error("") == "t.csv: empty: no header line");
  CHECK(table_error("\n\n") == "t.csv: empty: no header line");
  CHECK(table_error("a,a\n") == "t.csv, line 1: the column 'a' is named twice");
}

TEST_CASE("a record one character over the bound is refused, one at the bound is read") {
  CsvLimits limits{.max_record_chars = 8, .max_rows = 2};
  CHECK(table_error("abcdefgh\n", limits).empty());
  CHECK(table_error("abcdefghi\n", limits) == "t.csv, line 1: longer than 8 characters");
  CHECK(table_error("a\n1\n2\n", limits).empty());
  CHECK(table_error("a\n1\n2\n3\n", limits) == "t.csv, line 4: more than 2 rows");
  std::istringstream in("abcdefghijkl\n");
  CsvReader reader(in, "r.csv", limits);
  CsvRecord r;
  try {
    reader.next(r);
    FAIL("a long record was read");
  } catch (const CsvError& e) {
    CHECK(e.line == 1);
    CHECK(e.why == "longer than 8 characters");
    CHECK(e.excerpt == "abcdefgh");
  }
}

TEST_CASE("fields are read by column name, whatever the columns' order") {
  std::istringstream in("ms,kernel,n\n1.5,d-designated,1024\n\n2e-3,\"in,place\",-4\n");
  const CsvTable t(in, "t.csv");
  REQUIRE(t.rows().size() == 2);
  CHECK(t.has("kernel"));
  CHECK_FALSE(t.has("type"));
  const auto& a = t.rows()[0];
  CHECK(a["kernel"] == "d-designated");
  CHECK(a.number("ms") == 1.5);
  CHECK(a.integer("n") == 1024);
  const auto& b = t.rows()[1];
  CHECK(b.line() == 4);
  CHECK(b["kernel"] == "in,place");
  CHECK(b.number("ms") == 2e-3);
  CHECK(b.integer("n") == -4);
  CHECK_THROWS_WITH_AS(t.require({"kernel", "type"}), "t.csv: no column 'type'", CsvError);
  CHECK_THROWS_WITH_AS(a["type"], "t.csv: no column 'type'", CsvError);
  CHECK_THROWS_WITH_AS(b.number("kernel"), "t.csv, line 4: kernel must be a number (got 'in,place')", CsvError);
  CHECK_THROWS_WITH_AS(a.integer("ms"), "t.csv, line 2: ms must be a whole number (got '1.5')", CsvError);
}

TEST_CASE("a number field must be a finite number and nothing more") {
  std::istringstream in("x\nnan\ninf\n1.5x\n\"\"\n 2\n");
  const CsvTable t(in, "t.csv");
  for (const auto& row : t.rows()) CHECK_THROWS_AS(row.number("x"), CsvError);
}
