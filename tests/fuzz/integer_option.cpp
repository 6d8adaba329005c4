// The one parser of integer options (algorithms/params.h): the first bytes pick a rule (range and
// shape), the rest is the text. An accepted value is in range, of the shape, and is the number
// written (printing it gives the text back, up to leading zeros); anything else is refused with a
// reason, and parse_value turns that reason into InputError.
#include <bit>
#include <string>

#include "algorithms/params.h"
#include "fuzz_target.h"
#include "io/input_error.h"

MMSIM_FUZZ_TARGET(integer_option) {
  using namespace mmsim;
  if (data.size() < 2) return;
  static const std::int64_t bounds[] = {std::numeric_limits<std::int64_t>::min(),
                                        -(std::int64_t{1} << 31),
                                        -1,
                                        0,
                                        1,
                                        2,
                                        1024,
                                        std::int64_t{1} << 24,
                                        std::int64_t{1} << 32,
                                        std::numeric_limits<std::int64_t>::max()};
  constexpr std::size_t kBounds = sizeof bounds / sizeof bounds[0];
  std::int64_t lo = bounds[data[0] % kBounds], hi = bounds[data[1] % kBounds];
  if (lo > hi) std::swap(lo, hi);
  const auto shape = static_cast<IntegerShape>((data[0] / kBounds) % 3);
  const ParamSpec spec = integer_param("x", "-x", "fuzzed", lo, hi, std::nullopt, shape);
  const std::string text(fuzz::text_of(data.subspan(2)));
  const auto parsed = parse_integer(text, spec);
  if (const auto* v = std::get_if<std::int64_t>(&parsed)) {
    fuzz::require(*v >= lo && *v <= hi, "an integer out of its range was accepted");
    if (shape == IntegerShape::PowerOfTwo)
      fuzz::require(*v > 0 && std::has_single_bit(static_cast<std::uint64_t>(*v)), "accepted as a power of two");
    // The text is the number: an optional '-', then digits.
    std::string digits = text;
    const bool negative = !digits.empty() && digits[0] == '-';
    if (negative) digits.erase(0, 1);
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
    const std::string printed = std::to_string(*v);
    fuzz::require(printed == (negative && digits != "0" ? "-" : "") + digits, "accepted '" + text + "' as " + printed);
    fuzz::require(std::get<std::int64_t>(parse_value(spec, text)) == *v, "parse_value disagrees with parse_integer");
  } else {
    fuzz::require(!std::get<std::string>(parsed).empty(), "a refusal without a reason");
    try {
      (void)parse_value(spec, text);
      fuzz::fail("parse_value accepted what parse_integer refused");
    } catch (const InputError&) {
    }
  }
}
