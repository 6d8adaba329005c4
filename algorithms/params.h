// Typed parameters that describe themselves: each algorithm declares its parameters once (name,
// type, default, the rule a value must satisfy, one line of help), and the command line, `mmsim
// list`, the reports and the validation all read that one declaration.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "io/quote.h"

namespace mmsim {

enum class ParamKind : std::uint8_t {
  Integer,  ///< a whole number in [min, max], maybe of a given shape
  Choice,   ///< one of a fixed list of words
  Text,     ///< free text, such as a file name
  Flag,     ///< present or absent
};

/// A further rule on an integer besides its range.
enum class IntegerShape : std::uint8_t { Any, PowerOfTwo, PerfectSquare };

struct ParamSpec {
  std::string name;   ///< key in the report and in ParamValues ("n", "perm", "w")
  std::string flags;  ///< command-line spelling, CLI11 style ("-n", "-w,--width", "--perm")
  ParamKind kind = ParamKind::Integer;
  std::string help;                          ///< one line
  std::optional<std::string> default_value;  ///< as typed on the command line; empty: none
  bool required = false;
  std::int64_t min = 0;
  std::int64_t max = std::numeric_limits<std::int64_t>::max();
  IntegerShape shape = IntegerShape::Any;
  std::vector<std::string> choices;

  /// The rule in words, e.g. "a power of two in [2, 2^24]", "one of raw, ras, rap".
  std::string rule() const;
  /// The first flag as a person types it ("-n", "--perm").
  std::string flag() const;
};

/// Builders for the common kinds, so that declarations read as one line each.
ParamSpec integer_param(std::string name, std::string flags, std::string help, std::int64_t min, std::int64_t max,
                        std::optional<std::int64_t> default_value = std::nullopt,
                        IntegerShape shape = IntegerShape::Any);
ParamSpec choice_param(std::string name, std::string flags, std::string help, std::vector<std::string> choices,
                       std::optional<std::string> default_value = std::nullopt);
ParamSpec text_param(std::string name, std::string flags, std::string help);
ParamSpec flag_param(std::string name, std::string flags, std::string help);
/// The seed of every random choice of a run: an integer in [0, 2^63 - 1], default 1.
ParamSpec seed_param();

using ParamValue = std::variant<std::int64_t, std::string, bool>;

/// The values of one run, in declaration order: every parameter given or with a default.
class ParamValues {
 public:
  void set(const std::string& name, ParamValue v);
  bool has(const std::string& name) const;
  /// Throw std::logic_error when the parameter is absent or of another kind (an algorithm bug).
  std::int64_t integer(const std::string& name) const;
  const std::string& text(const std::string& name) const;
  bool flag(const std::string& name) const;  ///< false when absent
  std::optional<std::int64_t> integer_if(const std::string& name) const;
  std::optional<std::string> text_if(const std::string& name) const;
  const std::vector<std::pair<std::string, ParamValue>>& items() const { return items_; }

 private:
  const ParamValue* find(const std::string& name) const;
  std::vector<std::pair<std::string, ParamValue>> items_;
};

/// Parses an integer exactly as written: optional '-' only where min < 0, digits only, no empty
/// value, no overflow; then checks the range and the shape. On failure returns the reason
/// ("must be a power of two in [2, 2^24] (got 3)"); the caller names the option.
std::variant<std::int64_t, std::string> parse_integer(const std::string& text, const ParamSpec& spec);

/// Checks one value as given on the command line and converts it; the error names the option and
/// its rule, e.g. "-m: must be a power of two in [1, 65536] (got 3)".
ParamValue parse_value(const ParamSpec& spec, const std::string& text);

/// "2^24" for powers of two from 2^16 up, the number otherwise.
std::string format_bound(std::int64_t v);

}  // namespace mmsim
