// A small JSON reader for mmsim's own input files (the grids of `mmsim sweep`). Written here, as
// the writer is (report/json.h), so that the build needs no JSON package: the GPU machine has none.
// Bounded: documents of at most kMaxJsonBytes and kMaxJsonDepth levels of nesting.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/json.h"

namespace mmsim::report {

inline constexpr std::size_t kMaxJsonBytes = std::size_t{1} << 20;
inline constexpr int kMaxJsonDepth = 32;

class JsonValue {
 public:
  enum class Kind : std::uint8_t { Null, Bool, Number, String, Array, Object };
  using Members = std::vector<std::pair<std::string, JsonValue>>;

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::Null; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_number() const { return kind_ == Kind::Number; }
  bool is_string() const { return kind_ == Kind::String; }
  bool is_array() const { return kind_ == Kind::Array; }
  bool is_object() const { return kind_ == Kind::Object; }

  bool boolean() const { return bool_; }
  /// A string's value, or a number exactly as written ("1024", "1e3").
  const std::string& text() const { return text_; }
  /// A number written as an integer (digits, maybe a leading '-') that fits in 64 bits.
  std::optional<std::int64_t> integer() const;
  const std::vector<JsonValue>& items() const { return items_; }
  /// An object's members in the order written (keys are unique: the reader refuses duplicates).
  const Members& members() const { return members_; }
  /// An object's member, or nullptr.
  const JsonValue* find(std::string_view key) const;

  /// "null", "true", "a number", "a string", "an array", "an object": for messages.
  std::string describe() const;
  /// The same value for the writer, so that an output can begin with the input that made it.
  Json to_json() const;

  /// Values built by a reader of another form than text (the Python module's dicts and lists), so
  /// that they are checked by the same code as a file's. A number is given as it would be written.
  static JsonValue null_value() { return {}; }
  static JsonValue boolean_value(bool b);
  static JsonValue number_value(std::string written);
  static JsonValue string_value(std::string s);
  static JsonValue array_value(std::vector<JsonValue> items);
  static JsonValue object_value(Members members);

 private:
  friend class JsonParser;
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  std::string text_;
  std::vector<JsonValue> items_;
  Members members_;
};

/// Parses one JSON document (RFC 8259; \u escapes become UTF-8). Throws std::invalid_argument with
/// "line L, column C: what" for the first error.
JsonValue parse_json(std::string_view text);

}  // namespace mmsim::report
