// A small JSON value with ordered keys and a writer: all mmsim needs to print one JSON object per
// command. (Written here rather than taken from a library so that the build needs only packages
// that the CPU and the GPU machines both have.)
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace mmsim::report {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() : v_(nullptr) {}
  Json(std::nullptr_t) : v_(nullptr) {}
  Json(bool b) : v_(b) {}
  Json(int i) : v_(static_cast<std::int64_t>(i)) {}
  Json(long i) : v_(static_cast<std::int64_t>(i)) {}
  Json(long long i) : v_(static_cast<std::int64_t>(i)) {}
  Json(unsigned i) : v_(static_cast<std::uint64_t>(i)) {}
  Json(unsigned long i) : v_(static_cast<std::uint64_t>(i)) {}
  Json(unsigned long long i) : v_(static_cast<std::uint64_t>(i)) {}
  Json(double d) : v_(d) {}
  Json(const char* s) : v_(std::string(s)) {}
  Json(std::string s) : v_(std::move(s)) {}
  Json(Array a) : v_(std::move(a)) {}
  Json(Object o) : v_(std::move(o)) {}
  template <typename T>
  Json(const std::optional<T>& o) : Json(o ? Json(*o) : Json()) {}

  static Json object() { return Json(Object{}); }
  static Json array() { return Json(Array{}); }

  /// Appends (or replaces) a key of an object, keeping insertion order.
  Json& set(const std::string& key, Json value);
  /// Appends to an array.
  Json& push(Json value);

  std::string dump(int indent = 2) const;

  using Value = std::variant<std::nullptr_t, bool, std::int64_t, std::uint64_t, double, std::string, Array, Object>;
  /// The value itself, for a writer of another form than text (the Python module's objects).
  const Value& value() const { return v_; }

 private:
  void write(std::string& out, int indent, int depth) const;
  Value v_;
};

}  // namespace mmsim::report
