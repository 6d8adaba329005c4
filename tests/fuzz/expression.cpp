// The teaching expressions of `mmsim access --addr` and `--cell` (teaching/expression.h):
// the first byte picks w and the thread count, the rest is the text, parsed as one expression and
// as a list. Evaluation must give a value, `_`, or ExpressionError, never undefined behaviour
// (UBSan checks the 64-bit arithmetic); a column in an error lies within the text or one past it.
#include "teaching/expression.h"

#include "fuzz_target.h"

namespace {

using mmsim::teaching::Expression;
using mmsim::teaching::ExpressionError;

void check_column(const ExpressionError& e, std::size_t length) {
  mmsim::fuzz::require(e.column >= 1 && static_cast<std::size_t>(e.column) <= length + 1 && e.length >= 1,
                       "an expression error blames a column outside the text");
}

}  // namespace

MMSIM_FUZZ_TARGET(expression) {
  if (data.empty()) return;
  const std::int64_t w = std::int64_t{1} << (data[0] % 6);
  const std::int64_t threads = w * ((data[0] >> 3) % 4 + 1);
  const std::string_view text = mmsim::fuzz::text_of(data.subspan(1));
  try {
    const Expression e = Expression::parse(text);
    for (std::int64_t t = 0; t < threads; ++t) {
      try {
        (void)e.evaluate({t, w, threads});
      } catch (const ExpressionError& err) {
        check_column(err, text.size());
      }
    }
  } catch (const ExpressionError& err) {
    check_column(err, text.size());
  }
  try {
    for (const auto& e : Expression::parse_list(text)) {
      try {
        (void)e.evaluate({threads - 1, w, threads});
      } catch (const ExpressionError& err) {
        check_column(err, text.size());
      }
    }
  } catch (const ExpressionError& err) {
    check_column(err, text.size());
  }
}
