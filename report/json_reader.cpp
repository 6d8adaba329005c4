#include "report/json_reader.h"

#include <cstdlib>
#include <stdexcept>

namespace mmsim::report {

std::optional<std::int64_t> JsonValue::integer() const {
  if (kind_ != Kind::Number || text_.empty()) return std::nullopt;
  const bool negative = text_[0] == '-';
  std::uint64_t v = 0;
  const std::size_t start = negative ? 1 : 0;
  if (start == text_.size()) return std::nullopt;
  // The magnitude may reach 2^63 for a negative number, 2^63 - 1 otherwise.
  const std::uint64_t limit = (std::uint64_t{1} << 63) - (negative ? 0 : 1);
  for (std::size_t i = start; i < text_.size(); ++i) {
    const char c = text_[i];
    if (c < '0' || c > '9') return std::nullopt;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (limit - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return negative ? static_cast<std::int64_t>(0 - v) : static_cast<std::int64_t>(v);
}

const JsonValue* JsonValue::find(std::string_view key) const {
  for (const auto& [k, v] : members_)
    if (k == key) return &v;
  return nullptr;
}

std::string JsonValue::describe() const {
  switch (kind_) {
    case Kind::Null:
      return "null";
    case Kind::Bool:
      return bool_ ? "true" : "false";
    case Kind::Number:
      return "a number";
    case Kind::String:
      return "a string";
    case Kind::Array:
      return "an array";
    case Kind::Object:
      return "an object";
  }
  return "?";
}

Json JsonValue::to_json() const {
  switch (kind_) {
    case Kind::Null:
      return Json();
    case Kind::Bool:
      return Json(bool_);
    case Kind::Number:
      if (auto i = integer()) return Json(static_cast<long long>(*i));
      return Json(std::strtod(text_.c_str(), nullptr));
    case Kind::String:
      return Json(text_);
    case Kind::Array: {
      Json a = Json::array();
      for (const auto& v : items_) a.push(v.to_json());
      return a;
    }
    case Kind::Object: {
      Json o = Json::object();
      for (const auto& [k, v] : members_) o.set(k, v.to_json());
      return o;
    }
  }
  return Json();
}

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : s_(text) {}

  JsonValue document() {
    if (s_.size() > kMaxJsonBytes) fail("larger than " + std::to_string(kMaxJsonBytes) + " bytes");
    JsonValue v = value(0);
    space();
    if (at_ < s_.size()) fail("text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < at_ && i < s_.size(); ++i) {
      if (s_[i] == '\n')
        ++line, column = 1;
      else
        ++column;
    }
    throw std::invalid_argument("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what);
  }

  void space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\n' || s_[at_] == '\r')) ++at_;
  }

  bool literal(std::string_view word) {
    if (s_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  JsonValue value(int depth) {
    if (depth > kMaxJsonDepth) fail("nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    space();
    if (at_ >= s_.size()) fail("a value was expected, the text ended");
    JsonValue v;
    const char c = s_[at_];
    if (c == '{') {
      v.kind_ = JsonValue::Kind::Object;
      ++at_;
      space();
      if (at_ < s_.size() && s_[at_] == '}') return ++at_, v;
      while (true) {
        space();
        if (at_ >= s_.size() || s_[at_] != '"') fail("a key in double quotes was expected");
        std::string key = string();
        if (v.find(key)) fail("the key \"" + key + "\" appears twice");
        space();
        if (at_ >= s_.size() || s_[at_] != ':') fail("':' was expected after a key");
        ++at_;
        v.members_.emplace_back(std::move(key), value(depth + 1));
        space();
        if (at_ < s_.size() && s_[at_] == ',') {
          ++at_;
          continue;
        }
        if (at_ < s_.size() && s_[at_] == '}') return ++at_, v;
        fail("',' or '}' was expected");
      }
    }
    if (c == '[') {
      v.kind_ = JsonValue::Kind::Array;
      ++at_;
      space();
      if (at_ < s_.size() && s_[at_] == ']') return ++at_, v;
      while (true) {
        v.items_.push_back(value(depth + 1));
        space();
        if (at_ < s_.size() && s_[at_] == ',') {
          ++at_;
          continue;
        }
        if (at_ < s_.size() && s_[at_] == ']') return ++at_, v;
        fail("',' or ']' was expected");
      }
    }
    if (c == '"') {
      v.kind_ = JsonValue::Kind::String;
      v.text_ = string();
      return v;
    }
    if (literal("true")) {
      v.kind_ = JsonValue::Kind::Bool;
      v.bool_ = true;
      return v;
    }
    if (literal("false")) {
      v.kind_ = JsonValue::Kind::Bool;
      return v;
    }
    if (literal("null")) return v;
    if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind_ = JsonValue::Kind::Number;
      v.text_ = number();
      return v;
    }
    fail("a value was expected");
  }

  // RFC 8259 number grammar: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  std::string number() {
    const std::size_t start = at_;
    const auto digits = [&] {
      const std::size_t d = at_;
      while (at_ < s_.size() && s_[at_] >= '0' && s_[at_] <= '9') ++at_;
      return at_ - d;
    };
    if (s_[at_] == '-') ++at_;
    if (at_ < s_.size() && s_[at_] == '0')
      ++at_;
    else if (digits() == 0)
      fail("a digit was expected");
    if (at_ < s_.size() && s_[at_] == '.') {
      ++at_;
      if (digits() == 0) fail("a digit was expected after '.'");
    }
    if (at_ < s_.size() && (s_[at_] == 'e' || s_[at_] == 'E')) {
      ++at_;
      if (at_ < s_.size() && (s_[at_] == '+' || s_[at_] == '-')) ++at_;
      if (digits() == 0) fail("a digit was expected in the exponent");
    }
    return std::string(s_.substr(start, at_ - start));
  }

  unsigned hex4() {
    unsigned u = 0;
    for (int i = 0; i < 4; ++i, ++at_) {
      if (at_ >= s_.size()) fail("four hex digits were expected after \\u");
      const char h = s_[at_];
      u <<= 4;
      if (h >= '0' && h <= '9')
        u |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        u |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        u |= static_cast<unsigned>(h - 'A' + 10);
      else
        fail("four hex digits were expected after \\u");
    }
    return u;
  }

  static void utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string string() {
    ++at_;  // the opening quote
    std::string out;
    while (true) {
      if (at_ >= s_.size()) fail("the string is not closed");
      const char c = s_[at_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("a control character inside a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= s_.size()) fail("the string is not closed");
      const char e = s_[at_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00) {  // a surrogate pair
            if (!literal("\\u")) fail("a low surrogate was expected");
            const unsigned low = hex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("a low surrogate was expected");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            fail("a low surrogate without a high one");
          }
          utf8(out, cp);
          break;
        }
        default:
          --at_;
          fail("an unknown escape");
      }
    }
  }

  std::string_view s_;
  std::size_t at_ = 0;
};

JsonValue parse_json(std::string_view text) { return JsonParser(text).document(); }

JsonValue JsonValue::boolean_value(bool b) {
  JsonValue v;
  v.kind_ = Kind::Bool;
  v.bool_ = b;
  return v;
}

JsonValue JsonValue::number_value(std::string written) {
  JsonValue v;
  v.kind_ = Kind::Number;
  v.text_ = std::move(written);
  return v;
}

JsonValue JsonValue::string_value(std::string s) {
  JsonValue v;
  v.kind_ = Kind::String;
  v.text_ = std::move(s);
  return v;
}

JsonValue JsonValue::array_value(std::vector<JsonValue> items) {
  JsonValue v;
  v.kind_ = Kind::Array;
  v.items_ = std::move(items);
  return v;
}

JsonValue JsonValue::object_value(Members members) {
  JsonValue v;
  v.kind_ = Kind::Object;
  v.members_ = std::move(members);
  return v;
}

}  // namespace mmsim::report
