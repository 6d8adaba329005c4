// Typed parameters that describe themselves: each algorithm declares its parameters once (name,
// type, default, the rule a value must satisfy, one line of help), and the command line, `mmsim
// list`, the reports and the validation all read that one declaration.
//
// Values travel as types: text is parsed once, where it enters (the command line, a sweep's grid,
// the explorer's URL, Python's keyword arguments), by parse_value; inside, a run's values are a
// ParamValues, checked against the declared rules by check_value with the same messages.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
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
  Matrix,   ///< a matrix over F2 with a complement (BitMatrixValue): on the command line, the file holding it
};

/// A further rule on an integer besides its range.
enum class IntegerShape : std::uint8_t { Any, PowerOfTwo, PerfectSquare };

/// A BMMC map y = A x + c over n-bit indices (BDS Sect. 3) as a parameter's value: bit j of rows[i] is
/// a_ij, bit i of `complement` is c_i. It is read from a file where the command line names one, or
/// built in memory by a library caller; the report names it by `source`.
struct BitMatrixValue {
  std::vector<std::uint64_t> rows;
  std::uint64_t complement = 0;
  std::string source;  ///< the file it was read from, as given, or what a caller calls it
  friend bool operator==(const BitMatrixValue&, const BitMatrixValue&) = default;
  friend bool operator<(const BitMatrixValue& a, const BitMatrixValue& b) {
    return std::tie(a.rows, a.complement, a.source) < std::tie(b.rows, b.complement, b.source);
  }
};

using ParamValue = std::variant<std::int64_t, std::string, bool, BitMatrixValue>;

/// A value as a person would type it: the number, the word, "true" for a flag, a matrix's source.
/// For messages and text tables only; nothing parses it back.
std::string display(const ParamValue& v);

struct ParamSpec {
  std::string name;   ///< key in the report and in ParamValues ("n", "perm", "w")
  std::string flags;  ///< command-line spelling, CLI11 style ("-n", "-w,--width", "--perm")
  ParamKind kind = ParamKind::Integer;
  std::string help;                         ///< one line
  std::optional<ParamValue> default_value;  ///< empty: none
  bool required = false;
  std::int64_t min = 0;
  std::int64_t max = std::numeric_limits<std::int64_t>::max();
  IntegerShape shape = IntegerShape::Any;
  std::vector<std::string> choices;
  /// ParamKind::Matrix: reads the value from the file the text names (the command line's edge).
  std::function<BitMatrixValue(const std::string& file)> read;

  /// The rule in words, e.g. "a power of two in [2, 2^24]", "one of raw, ras, rap".
  std::string rule() const;
  /// The first flag as a person types it ("-n", "--perm").
  std::string flag() const;
  /// The default as typed on the command line ("32", "random"), for help texts; empty: none.
  std::optional<std::string> default_text() const;
};

/// Builders for the common kinds, so that declarations read as one line each.
ParamSpec integer_param(std::string name, std::string flags, std::string help, std::int64_t min, std::int64_t max,
                        std::optional<std::int64_t> default_value = std::nullopt,
                        IntegerShape shape = IntegerShape::Any);
ParamSpec choice_param(std::string name, std::string flags, std::string help, std::vector<std::string> choices,
                       std::optional<std::string> default_value = std::nullopt);
ParamSpec text_param(std::string name, std::string flags, std::string help);
ParamSpec flag_param(std::string name, std::string flags, std::string help);
ParamSpec matrix_param(std::string name, std::string flags, std::string help,
                       std::function<BitMatrixValue(const std::string& file)> read);
/// The seed of every random choice of a run: an integer in [0, 2^63 - 1], default 1.
ParamSpec seed_param();

/// The values of one run, in declaration order: every parameter given or with a default. Built by
/// name, so that a caller writes `{{"n", 4096}, {"perm", "random"}, {"direct", true}}`.
class ParamValues {
 public:
  ParamValues() = default;
  ParamValues(std::initializer_list<std::pair<std::string, ParamValue>> values);
  void set(const std::string& name, ParamValue v);
  /// Removes a value; nothing when absent.
  void erase(const std::string& name);
  bool has(const std::string& name) const;
  /// nullptr when absent.
  const ParamValue* find(const std::string& name) const;
  /// Throw std::logic_error when the parameter is absent or of another kind (an algorithm bug).
  std::int64_t integer(const std::string& name) const;
  const std::string& text(const std::string& name) const;
  bool flag(const std::string& name) const;  ///< false when absent
  std::optional<std::int64_t> integer_if(const std::string& name) const;
  std::optional<std::string> text_if(const std::string& name) const;
  /// nullptr when absent; throws std::logic_error when of another kind.
  const BitMatrixValue* matrix_if(const std::string& name) const;
  const std::vector<std::pair<std::string, ParamValue>>& items() const { return items_; }
  bool empty() const { return items_.empty(); }
  /// Equal when the same names hold the same values in the same order; ordered, so that runs can
  /// be keyed by their values.
  friend bool operator==(const ParamValues&, const ParamValues&) = default;
  friend bool operator<(const ParamValues& a, const ParamValues& b) { return a.items_ < b.items_; }

 private:
  std::vector<std::pair<std::string, ParamValue>> items_;
};

/// Parses an integer exactly as written: optional '-' only where min < 0, digits only, no empty
/// value, no overflow; then checks the range and the shape. On failure returns the reason
/// ("must be a power of two in [2, 2^24] (got 3)"); the caller names the option.
std::variant<std::int64_t, std::string> parse_integer(const std::string& text, const ParamSpec& spec);

/// The same rule for an integer already typed: the reason it breaks the range or the shape, naming
/// it as written ("must be a power of two in [2, 2^24] (got '3')"), or nullopt.
std::optional<std::string> integer_error(std::int64_t v, const ParamSpec& spec);

/// Checks one value as given on the command line and converts it; the error names the option and
/// its rule, e.g. "-m: must be a power of two in [1, 65536] (got 3)". A flag's text is "true"; a
/// matrix's text names the file it is read from (spec.read).
ParamValue parse_value(const ParamSpec& spec, const std::string& text);

/// Checks a typed value against the declared kind and rule; throws InputError with parse_value's
/// message for the same value written out ("-n: must be an integer in [1, 2^28] (got '0')").
void check_value(const ParamSpec& spec, const ParamValue& value);

/// "2^24" for powers of two from 2^16 up, the number otherwise.
std::string format_bound(std::int64_t v);

}  // namespace mmsim
