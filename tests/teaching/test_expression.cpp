// The address expressions of `mmsim access --addr/--cell`: values as C computes them, every
// undefined case an error at the right column, never undefined behaviour (this suite runs under
// UBSan in ./mmsim.sh test-sanitize).
#include <doctest/doctest.h>

#include <limits>

#include "teaching/expression.h"

using namespace mmsim::teaching;

namespace {

std::optional<std::int64_t> eval(const char* text, std::int64_t t = 0, std::int64_t w = 32, std::int64_t p = 32) {
  return Expression::parse(text).evaluate({t, w, p});
}

// The column an expression is blamed at, parse or evaluation, or 0 when it is fine.
int error_column(const char* text, std::int64_t t = 0, std::int64_t w = 32) {
  try {
    (void)Expression::parse(text).evaluate({t, w, 32});
  } catch (const ExpressionError& e) {
    return e.column;
  }
  return 0;
}

std::string error_line(const char* text, std::int64_t t = 0) {
  try {
    (void)Expression::parse(text).evaluate({t, 32, 32});
  } catch (const ExpressionError& e) {
    return describe(e, text);
  }
  return "";
}

}  // namespace

TEST_CASE("the names: t the thread, i its lane t mod w, j its warp t / w, w, p the threads") {
  CHECK(eval("t", 37) == 37);
  CHECK(eval("i", 37) == 5);
  CHECK(eval("j", 37) == 1);
  CHECK(eval("lane", 37) == 5);
  CHECK(eval("warp", 37) == 1);
  CHECK(eval("w", 37) == 32);
  CHECK(eval("p", 0, 32, 1024) == 1024);
}

TEST_CASE("the patterns of the issue: t*33 and the transposed index (t%w)*w + t/w") {
  CHECK(eval("t*33", 5) == 165);
  CHECK(eval("(t%w)*w + t/w", 33) == 32 + 1);
  CHECK(eval("(t%w)*w + t/w", 31) == 31 * 32);
}

TEST_CASE("C's precedence: * before +, + before <<, << before <, < before ==, & before ^ before |") {
  CHECK(eval("1 + 2 * 3") == 7);
  CHECK(eval("1 << 2 + 1") == 8);
  CHECK(eval("1 < 2 == 1") == 1);
  CHECK(eval("6 & 3 ^ 1") == 3);   // (6 & 3) ^ 1 = 2 ^ 1
  CHECK(eval("4 | 1 ^ 1") == 4);   // 4 | (1 ^ 1)
  CHECK(eval("2 ^ 3") == 1);       // XOR, not a power
  CHECK(eval("10 - 3 - 2") == 5);  // left to right
  CHECK(eval("-3 * -2") == 6);
  CHECK(eval("~0") == -1);
  CHECK(eval("!0 + !5") == 1);
}

TEST_CASE("division truncates toward zero and the remainder takes the dividend's sign, as in C") {
  CHECK(eval("7 / 2") == 3);
  CHECK(eval("-7 / 2") == -3);
  CHECK(eval("-7 % 3") == -1);
  CHECK(eval("7 % -3") == 1);
}

TEST_CASE("min, max, comparisons and ? : with _ for an inactive thread") {
  CHECK(eval("min(t, 3)", 5) == 3);
  CHECK(eval("max(t, 3)", 5) == 5);
  CHECK(eval("min(max(t, 1), 2)", 0) == 1);
  CHECK(eval("t < 2 ? t : _", 1) == 1);
  CHECK_FALSE(eval("t < 2 ? t : _", 2).has_value());
  CHECK_FALSE(eval("_").has_value());
  CHECK(eval("t == 0 ? 9 : t == 1 ? _ : 7", 2) == 7);
  CHECK_FALSE(eval("t == 0 ? 9 : t == 1 ? _ : 7", 1).has_value());
  CHECK(eval("t >= 1 && t <= 2", 2) == 1);
  CHECK(eval("t > 1 || t != 0", 0) == 0);
  CHECK(eval("0x1F") == 31);
}

TEST_CASE("the operand not taken is never evaluated: ? :, && and || short-circuit") {
  CHECK(eval("t == 0 ? 1 : 10 / t", 0) == 1);
  CHECK(eval("t != 0 && 10 / t", 0) == 0);
  CHECK(eval("t == 0 || 10 / t", 0) == 1);
}

TEST_CASE("overflow, division by zero and shifts out of range are errors at the operator's column") {
  CHECK(error_column("t/0") == 2);
  CHECK(error_column("t % (t - t)") == 3);
  CHECK(error_column("9223372036854775807 + 1") == 21);
  CHECK(error_column("-9223372036854775807 - 2") == 22);
  CHECK(error_column("4611686018427387904 * 2") == 21);
  CHECK(error_column("0 - 9223372036854775807 - 1") == 0);  // exactly INT64_MIN is fine
  CHECK(error_column("-(0 - 9223372036854775807 - 1)") == 1);
  CHECK(error_column("(0 - 9223372036854775807 - 1) / -1") == 31);
  CHECK(error_column("(0 - 9223372036854775807 - 1) % -1") == 31);
  CHECK(error_column("1 << 64") == 3);
  CHECK(error_column("1 << -1") == 3);
  CHECK(error_column("1 >> 64") == 3);
  CHECK(error_column("1 << 63") == 3);  // 2^63 does not fit
  CHECK(error_column("3 << 62") == 3);
  CHECK(error_column("1 << 62") == 0);
  CHECK(eval("-1 << 63") == std::numeric_limits<std::int64_t>::min());
  CHECK(eval("-8 >> 1") == -4);  // arithmetic shift, defined in C++20
  CHECK(eval("-5 << 2") == -20);
}

TEST_CASE("a syntax error names the character and marks it in brackets on one line") {
  CHECK(error_line("t*33)") == "unexpected ')' at column 5: t*33[)]");
  CHECK(error_line("t*(33") == "the expression ends too early: expected ')' at column 6: t*(33[end]");
  CHECK(error_line("") == "the expression ends too early at column 1: [end]");
  CHECK(error_line("t +") == "the expression ends too early at column 4: t +[end]");
  CHECK(error_line("3t") == "unexpected 't' at column 2: 3[t]");
  CHECK(error_line("x*2").rfind("unknown name 'x'", 0) == 0);
  CHECK(error_line("t = 1") == "unexpected '=' at column 3: t [=] 1");
  CHECK(error_line("1 << 99") == "shift count 99 outside [0, 63] at column 3: 1 [<<] 99");
  CHECK(error_line("t\n+") == "the expression ends too early at column 4: t +[end]");  // still one line
  // A long text: a window around the column, never the whole text, control bytes as '?'.
  CHECK(error_line((std::string(1000, '(') + "t*33)").c_str()) ==
        "nested more than 64 deep at column 65: ..." + std::string(24, '(') + "[(]" + std::string(24, '(') + "...");
  const std::string line = error_line(("t" + std::string(2000, ' ') + "$" + std::string(2000, 'x')).c_str());
  CHECK(line == "unexpected '$' at column 2002: ..." + std::string(24, ' ') + "[$]" + std::string(24, 'x') + "...");
  CHECK(error_line("t\x1b[31m+") == "unexpected character 0x1b at column 2: t[?][31m+");
}

TEST_CASE("_ decides a whole value only: inside arithmetic it is refused where it stands") {
  CHECK(error_column("_ + 1") == 1);
  CHECK(error_column("1 + (t ? _ : 2)") == 10);
  CHECK(error_column("min(_, 1)") == 5);
  CHECK(error_column("t ? _ : _") == 0);
  CHECK(error_column("_x") == 1);  // a name, not _
}

TEST_CASE("numbers past 2^63 - 1 and nesting past the limit are refused, not overflowed") {
  CHECK(error_column("9223372036854775808") == 1);
  CHECK(error_column("0x8000000000000000") == 1);
  CHECK(error_column("0x") == 3);
  std::string deep(200, '(');
  deep += "1" + std::string(200, ')');
  CHECK(error_column(deep.c_str()) > 0);
  std::string ok(20, '(');
  ok += "t" + std::string(20, ')');
  CHECK(eval(ok.c_str(), 4) == 4);
}

TEST_CASE("a list splits at top-level commas only, with columns from the start of the whole text") {
  const auto l = Expression::parse_list("min(t, 2), t % 4");
  REQUIRE(l.size() == 2);
  CHECK(l[0].evaluate({5, 4, 8}) == 2);
  CHECK(l[1].evaluate({5, 4, 8}) == 1);
  try {
    (void)Expression::parse_list("t, t/");
    FAIL("no error");
  } catch (const ExpressionError& e) {
    CHECK(e.column == 6);
  }
  try {
    (void)Expression::parse_list("t, t / 0")[1].evaluate({0, 4, 4});
    FAIL("no error");
  } catch (const ExpressionError& e) {
    CHECK(e.column == 6);
  }
  CHECK_THROWS_AS((void)Expression::parse_list("t,"), ExpressionError);
}

TEST_CASE("random text over the grammar's alphabet is a value or an ExpressionError, never undefined behaviour") {
  // A fixed generator: the same 50,000 strings every run. Under UBSan (./mmsim.sh test-sanitize) an
  // overflow or bad shift anywhere in the parser or evaluator would stop the test.
  static const char* const kPieces[] = {"t",
                                        "i",
                                        "j",
                                        "w",
                                        "p",
                                        "lane",
                                        "warp",
                                        "0",
                                        "1",
                                        "7",
                                        "63",
                                        "64",
                                        "9223372036854775807",
                                        "0x7fffffffffffffff",
                                        "+",
                                        "-",
                                        "*",
                                        "/",
                                        "%",
                                        "^",
                                        "&",
                                        "|",
                                        "<<",
                                        ">>",
                                        "<",
                                        ">",
                                        "<=",
                                        ">=",
                                        "==",
                                        "!=",
                                        "&&",
                                        "||",
                                        "!",
                                        "~",
                                        "?",
                                        ":",
                                        "(",
                                        ")",
                                        ",",
                                        "_",
                                        "min(",
                                        "max(",
                                        " "};
  constexpr std::size_t kCount = sizeof kPieces / sizeof kPieces[0];
  std::uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  int values = 0, errors = 0;
  for (int n = 0; n < 50000; ++n) {
    std::string text;
    const auto len = 1 + next() % 12;
    for (std::uint64_t k = 0; k < len; ++k) text += kPieces[next() % kCount];
    try {
      const auto e = Expression::parse(text);
      for (std::int64_t t : {0, 1, 31, 1000000}) try {
          (void)e.evaluate({t, 32, 1 << 20});
          ++values;
        } catch (const ExpressionError& err) {
          CHECK(err.column >= 1);
          ++errors;
        }
    } catch (const ExpressionError& err) {
      CHECK(err.column >= 1);
      CHECK(err.column <= static_cast<int>(text.size()) + 1);
      CHECK(describe(err, text).find('\n') == std::string::npos);
      ++errors;
    }
  }
  CHECK(values > 1000);  // the generator does reach valid expressions
  CHECK(errors > 1000);
}
