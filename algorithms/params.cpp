#include "algorithms/params.h"

#include <cmath>
#include <stdexcept>

#include "io/input_error.h"

namespace mmsim {

std::string format_bound(std::int64_t v) {
  if (v >= 65536 && (v & (v - 1)) == 0) return "2^" + std::to_string(__builtin_ctzll(static_cast<std::uint64_t>(v)));
  if (v == std::numeric_limits<std::int64_t>::max()) return "2^63 - 1";
  return std::to_string(v);
}

std::string ParamSpec::flag() const {
  const auto comma = flags.find(',');
  const std::string first = flags.substr(0, comma);
  // Prefer the long spelling when there is one ("-w,--width" -> "-w": the short one is what the
  // papers call it, so keep the first as written).
  return first;
}

std::optional<std::string> ParamSpec::default_text() const {
  if (!default_value) return std::nullopt;
  return display(*default_value);
}

std::string display(const ParamValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return std::get<BitMatrixValue>(v).source;
}

std::string ParamSpec::rule() const {
  switch (kind) {
    case ParamKind::Integer: {
      std::string what = shape == IntegerShape::PowerOfTwo      ? "a power of two"
                         : shape == IntegerShape::PerfectSquare ? "a perfect square"
                                                                : "an integer";
      return what + " in [" + format_bound(min) + ", " + format_bound(max) + "]";
    }
    case ParamKind::Choice: {
      std::string s = "one of ";
      for (std::size_t i = 0; i < choices.size(); ++i) s += (i ? ", " : "") + choices[i];
      return s;
    }
    case ParamKind::Text:
      return "a non-empty text";
    case ParamKind::Flag:
      return "a flag (no value)";
    case ParamKind::Matrix:
      return "a file of n rows of n bits, then c";
  }
  return {};
}

// What every kind of parameter has; the constructors below add what their kind needs.
static ParamSpec base_param(std::string name, std::string flags, ParamKind kind, std::string help) {
  ParamSpec s;
  s.name = std::move(name);
  s.flags = std::move(flags);
  s.kind = kind;
  s.help = std::move(help);
  return s;
}

ParamSpec integer_param(std::string name, std::string flags, std::string help, std::int64_t min, std::int64_t max,
                        std::optional<std::int64_t> default_value, IntegerShape shape) {
  ParamSpec s = base_param(std::move(name), std::move(flags), ParamKind::Integer, std::move(help));
  s.min = min;
  s.max = max;
  s.shape = shape;
  if (default_value) s.default_value = *default_value;
  return s;
}

ParamSpec choice_param(std::string name, std::string flags, std::string help, std::vector<std::string> choices,
                       std::optional<std::string> default_value) {
  ParamSpec s = base_param(std::move(name), std::move(flags), ParamKind::Choice, std::move(help));
  s.choices = std::move(choices);
  if (default_value) s.default_value = std::move(*default_value);
  return s;
}

ParamSpec text_param(std::string name, std::string flags, std::string help) {
  return base_param(std::move(name), std::move(flags), ParamKind::Text, std::move(help));
}

ParamSpec flag_param(std::string name, std::string flags, std::string help) {
  return base_param(std::move(name), std::move(flags), ParamKind::Flag, std::move(help));
}

ParamSpec matrix_param(std::string name, std::string flags, std::string help,
                       std::function<BitMatrixValue(const std::string& file)> read) {
  ParamSpec s = base_param(std::move(name), std::move(flags), ParamKind::Matrix, std::move(help));
  s.read = std::move(read);
  return s;
}

ParamSpec seed_param() {
  return integer_param("seed", "--seed",
                       "seed of every random choice (a fixed generator: one seed, one run everywhere)", 0,
                       std::numeric_limits<std::int64_t>::max(), 1);
}

ParamValues::ParamValues(std::initializer_list<std::pair<std::string, ParamValue>> values) {
  for (const auto& [name, v] : values) set(name, v);
}

void ParamValues::erase(const std::string& name) {
  for (auto it = items_.begin(); it != items_.end(); ++it)
    if (it->first == name) {
      items_.erase(it);
      return;
    }
}

void ParamValues::set(const std::string& name, ParamValue v) {
  for (auto& [k, old] : items_)
    if (k == name) {
      old = std::move(v);
      return;
    }
  items_.emplace_back(name, std::move(v));
}

const ParamValue* ParamValues::find(const std::string& name) const {
  for (const auto& [k, v] : items_)
    if (k == name) return &v;
  return nullptr;
}

bool ParamValues::has(const std::string& name) const { return find(name) != nullptr; }

std::int64_t ParamValues::integer(const std::string& name) const {
  const ParamValue* v = find(name);
  if (!v || !std::holds_alternative<std::int64_t>(*v))
    throw std::logic_error("parameter " + name + ": no integer value");
  return std::get<std::int64_t>(*v);
}

const std::string& ParamValues::text(const std::string& name) const {
  const ParamValue* v = find(name);
  if (!v || !std::holds_alternative<std::string>(*v)) throw std::logic_error("parameter " + name + ": no text value");
  return std::get<std::string>(*v);
}

bool ParamValues::flag(const std::string& name) const {
  const ParamValue* v = find(name);
  return v && std::holds_alternative<bool>(*v) && std::get<bool>(*v);
}

std::optional<std::int64_t> ParamValues::integer_if(const std::string& name) const {
  if (!has(name)) return std::nullopt;
  return integer(name);
}

std::optional<std::string> ParamValues::text_if(const std::string& name) const {
  if (!has(name)) return std::nullopt;
  return text(name);
}

const BitMatrixValue* ParamValues::matrix_if(const std::string& name) const {
  const ParamValue* v = find(name);
  if (!v) return nullptr;
  if (!std::holds_alternative<BitMatrixValue>(*v)) throw std::logic_error("parameter " + name + ": no matrix value");
  return &std::get<BitMatrixValue>(*v);
}

namespace {

// The shape and range of an integer already read; on failure the reason, naming `text` as written.
std::optional<std::string> integer_rule_broken(std::int64_t v, const ParamSpec& spec, const std::string& text) {
  const auto fail = [&] { return "must be " + spec.rule() + " (got " + quote(text) + ")"; };
  if (v < spec.min || v > spec.max) return fail();
  if (spec.shape == IntegerShape::PowerOfTwo && (v <= 0 || (v & (v - 1)) != 0)) return fail();
  if (spec.shape == IntegerShape::PerfectSquare) {
    if (v < 0) return fail();
    auto r = static_cast<std::int64_t>(std::sqrt(static_cast<double>(v)));
    while (r > 0 && r * r > v) --r;
    while ((r + 1) <= 3037000499 && (r + 1) * (r + 1) <= v) ++r;  // 3037000499^2 < 2^63
    if (r * r != v) return fail();
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> integer_error(std::int64_t v, const ParamSpec& spec) {
  return integer_rule_broken(v, spec, std::to_string(v));
}

std::variant<std::int64_t, std::string> parse_integer(const std::string& text, const ParamSpec& spec) {
  const auto fail = [&] { return "must be " + spec.rule() + " (got " + quote(text) + ")"; };
  if (text.empty()) return fail();
  std::size_t i = 0;
  const bool negative = text[0] == '-';
  if (negative) {
    if (spec.min >= 0) return fail();
    i = 1;
  }
  if (i == text.size()) return fail();
  // Accumulate as a negative number so that the most negative value fits too.
  std::int64_t v = 0;
  constexpr std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return fail();
    const int d = c - '0';
    if (v < (lowest + d) / 10) return fail();  // overflow
    v = v * 10 - d;
  }
  if (!negative) {
    if (v == lowest) return fail();
    v = -v;
  }
  if (auto broken = integer_rule_broken(v, spec, text)) return *broken;
  return v;
}

ParamValue parse_value(const ParamSpec& spec, const std::string& text) {
  switch (spec.kind) {
    case ParamKind::Integer: {
      auto r = parse_integer(text, spec);
      if (auto* err = std::get_if<std::string>(&r)) throw InputError(spec.flag() + ": " + *err);
      return std::get<std::int64_t>(r);
    }
    case ParamKind::Choice:
      for (const auto& c : spec.choices)
        if (c == text) return text;
      throw InputError(spec.flag() + ": must be " + spec.rule() + " (got " + quote(text) + ")");
    case ParamKind::Text:
      if (text.empty()) throw InputError(spec.flag() + ": must be " + spec.rule() + " (got '')");
      return text;
    case ParamKind::Flag:
      return true;
    case ParamKind::Matrix:
      if (text.empty()) throw InputError(spec.flag() + ": must be " + spec.rule() + " (got '')");
      if (!spec.read) throw std::logic_error("parameter " + spec.name + ": a matrix with no reader");
      return spec.read(text);
  }
  throw std::logic_error("parameter kind");
}

void check_value(const ParamSpec& spec, const ParamValue& value) {
  const auto fail = [&] {
    throw InputError(spec.flag() + ": must be " + spec.rule() + " (got " + quote(display(value)) + ")");
  };
  switch (spec.kind) {
    case ParamKind::Integer: {
      const auto* v = std::get_if<std::int64_t>(&value);
      if (!v) fail();
      if (auto broken = integer_error(*v, spec)) throw InputError(spec.flag() + ": " + *broken);
      return;
    }
    case ParamKind::Choice: {
      const auto* v = std::get_if<std::string>(&value);
      if (!v) fail();
      for (const auto& c : spec.choices)
        if (c == *v) return;
      fail();
      return;
    }
    case ParamKind::Text: {
      const auto* v = std::get_if<std::string>(&value);
      if (!v || v->empty()) fail();
      return;
    }
    case ParamKind::Flag:
      if (!std::holds_alternative<bool>(value)) fail();
      return;
    case ParamKind::Matrix: {
      const auto* m = std::get_if<BitMatrixValue>(&value);
      if (!m) fail();
      return;
    }
  }
}

}  // namespace mmsim
