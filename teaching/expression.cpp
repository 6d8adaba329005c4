#include "teaching/expression.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "io/printable.h"
#include "io/quote.h"

namespace mmsim::teaching {

// Operator letters of Node::op. Binary: + - * / % & | ^, '<' '>' 'l' (<=) 'g' (>=) '=' (==) 'n' (!=),
// 'L' (<<) 'R' (>>) 'A' (&&) 'O' (||). Unary: '-' '+' '~' '!'. Names: 't' 'i' 'j' 'w' 'p', 'b' (block),
// 'l' (local), 'B' (threads per block).
// Calls: 'm' (min) 'M' (max).

class ExpressionParser {
 public:
  ExpressionParser(std::string_view text, Expression& out, const std::vector<std::string>* registers = nullptr)
      : s_(text), out_(out), registers_(registers) {}

  // expr, then the end of the text (or a top-level comma when `list`).
  int parse_one(bool list) {
    const int root = expr();
    skip();
    if (pos_ < s_.size() && !(list && s_[pos_] == ',')) unexpected();
    return root;
  }
  std::size_t pos() const { return pos_; }

 private:
  using Node = Expression::Node;
  using Kind = Expression::Kind;

  int column() const { return static_cast<int>(pos_) + 1; }
  [[noreturn]] void fail(int col, std::string reason) const { throw ExpressionError(col, std::move(reason)); }
  [[noreturn]] void unexpected() const {
    if (pos_ >= s_.size()) fail(column(), "the expression ends too early");
    fail(column(), "unexpected " + shown(s_[pos_]));
  }
  // 'x', or "character 0x0a" for what does not print (the message stays on one line).
  static std::string shown(char ch) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f) return std::string("'") + ch + "'";
    char code[24];
    std::snprintf(code, sizeof code, "character 0x%02x", c);
    return code;
  }
  void skip() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  // True (and consumed) when the text continues with `tok`, but not when it continues with a longer
  // operator that starts with it (`<` is not `<<` or `<=`; `&` is not `&&`).
  bool take(std::string_view tok) {
    skip();
    if (s_.substr(pos_, tok.size()) != tok) return false;
    if (tok.size() == 1 && pos_ + 1 < s_.size()) {
      const char c = tok[0], d = s_[pos_ + 1];
      if ((c == '<' && (d == '<' || d == '=')) || (c == '>' && (d == '>' || d == '=')) || (c == '&' && d == '&') ||
          (c == '|' && d == '|') || (c == '=' && d == '=') || (c == '!' && d == '='))
        return false;
    }
    pos_ += tok.size();
    return true;
  }
  void expect(char c) {
    skip();
    if (pos_ >= s_.size() || s_[pos_] != c) {
      if (pos_ >= s_.size()) fail(column(), std::string("the expression ends too early: expected '") + c + "'");
      fail(column(), std::string("expected '") + c + "', found " + shown(s_[pos_]));
    }
    ++pos_;
  }
  int add(Node n) {
    out_.nodes_.push_back(n);
    return static_cast<int>(out_.nodes_.size() - 1);
  }
  int binary(char op, int col, int a, int b) { return add({Kind::Binary, op, col, 0, a, b, -1}); }

  struct Deeper {
    explicit Deeper(ExpressionParser& p) : p_(p) {
      if (++p_.depth_ > Expression::kMaxDepth)
        p_.fail(p_.column(), "nested more than " + std::to_string(Expression::kMaxDepth) + " deep");
    }
    ~Deeper() { --p_.depth_; }
    ExpressionParser& p_;
  };

  int expr() {
    Deeper d(*this);
    const int c = lor();
    skip();
    const int col = column();
    if (!take("?")) return c;
    const int a = expr();
    expect(':');
    const int b = expr();
    return add({Kind::Ternary, '?', col, 0, c, a, b});
  }

  // One level of left-associative binary operators: `ops` pairs a token with its letter.
  template <typename Next>
  int level(Next next, std::initializer_list<std::pair<std::string_view, char>> ops) {
    int left = (this->*next)();
    while (true) {
      skip();
      const int col = column();
      bool found = false;
      for (const auto& [tok, op] : ops)
        if (take(tok)) {
          left = binary(op, col, left, (this->*next)());
          found = true;
          break;
        }
      if (!found) return left;
    }
  }
  int lor() { return level(&ExpressionParser::land, {{"||", 'O'}}); }
  int land() { return level(&ExpressionParser::bor, {{"&&", 'A'}}); }
  int bor() { return level(&ExpressionParser::bxor, {{"|", '|'}}); }
  int bxor() { return level(&ExpressionParser::band, {{"^", '^'}}); }
  int band() { return level(&ExpressionParser::eq, {{"&", '&'}}); }
  int eq() { return level(&ExpressionParser::rel, {{"==", '='}, {"!=", 'n'}}); }
  int rel() { return level(&ExpressionParser::shift, {{"<=", 'l'}, {">=", 'g'}, {"<", '<'}, {">", '>'}}); }
  int shift() { return level(&ExpressionParser::additive, {{"<<", 'L'}, {">>", 'R'}}); }
  int additive() { return level(&ExpressionParser::mul, {{"+", '+'}, {"-", '-'}}); }
  int mul() { return level(&ExpressionParser::unary, {{"*", '*'}, {"/", '/'}, {"%", '%'}}); }

  int unary() {
    skip();
    const int col = column();
    for (char op : {'-', '+', '~', '!'})
      if (take(std::string_view(&op, 1))) {
        Deeper d(*this);
        return add({Kind::Unary, op, col, 0, unary(), -1, -1});
      }
    return primary();
  }

  int primary() {
    skip();
    const int col = column();
    if (pos_ >= s_.size()) unexpected();
    const char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      const int e = expr();
      expect(')');
      return e;
    }
    if (c >= '0' && c <= '9') return number();
    if (c == '_' && !(pos_ + 1 < s_.size() && is_name_char(s_[pos_ + 1]))) {
      ++pos_;
      return add({Kind::Inactive, '_', col, 0, -1, -1, -1});
    }
    if (is_name_char(c)) {
      std::size_t end = pos_;
      while (end < s_.size() && is_name_char(s_[end])) ++end;
      const std::string_view name = s_.substr(pos_, end - pos_);
      pos_ = end;
      if (name == "min" || name == "max") {
        expect('(');
        const int a = expr();
        expect(',');
        const int b = expr();
        expect(')');
        return add({Kind::Call, name == "min" ? 'm' : 'M', col, 0, a, b, -1});
      }
      char v = 0;
      if (name == "t")
        v = 't';
      else if (name == "i" || name == "lane")
        v = 'i';
      else if (name == "j" || name == "warp")
        v = 'j';
      else if (name == "w")
        v = 'w';
      else if (name == "p")
        v = 'p';
      else if (name == "block")
        v = 'b';
      else if (name == "local")
        v = 'l';
      else if (name == "tpb")
        v = 'B';
      else if (const int r = register_of(name); r >= 0)
        return add({Kind::Register, 'r', col, r, -1, -1, -1});
      else
        fail(col, "unknown name '" + std::string(name).substr(0, 32) +
                      "' (names: t, i, j, w, p, lane, warp, block, local, tpb, min, max, r0, r1, ...)");
      return add({Kind::Name, v, col, 0, -1, -1, -1});
    }
    unexpected();
  }

  // rK (K < kMaxRegisters, no leading zero) or a name the caller gave a register; -1 otherwise.
  int register_of(std::string_view name) const {
    if (registers_)
      for (std::size_t k = 0; k < registers_->size(); ++k)
        if ((*registers_)[k] == name) return static_cast<int>(k);
    if (name.size() < 2 || name.size() > 4 || name[0] != 'r' || (name[1] == '0' && name.size() > 2)) return -1;
    int r = 0;
    for (char c : name.substr(1)) {
      if (c < '0' || c > '9') return -1;
      r = 10 * r + (c - '0');
    }
    return r < Expression::kMaxRegisters ? r : -1;
  }

  static bool is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  int number() {
    const int col = column();
    std::uint64_t base = 10;
    if (s_[pos_] == '0' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == 'x' || s_[pos_ + 1] == 'X')) {
      base = 16;
      pos_ += 2;
    }
    const std::size_t start = pos_;
    std::uint64_t v = 0;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      std::uint64_t d;
      if (c >= '0' && c <= '9')
        d = static_cast<std::uint64_t>(c - '0');
      else if (base == 16 && c >= 'a' && c <= 'f')
        d = static_cast<std::uint64_t>(c - 'a' + 10);
      else if (base == 16 && c >= 'A' && c <= 'F')
        d = static_cast<std::uint64_t>(c - 'A' + 10);
      else
        break;
      if (v > (static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) - d) / base)
        fail(col, "number too large (at most 2^63 - 1)");
      v = v * base + d;
      ++pos_;
    }
    if (pos_ == start) fail(column(), "expected hexadecimal digits after 0x");
    if (pos_ < s_.size() && is_name_char(s_[pos_])) unexpected();
    return add({Kind::Number, '#', col, static_cast<std::int64_t>(v), -1, -1, -1});
  }

  std::string_view s_;
  Expression& out_;
  const std::vector<std::string>* registers_ = nullptr;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

namespace {

// `_` may decide the whole value only: the root, or a branch of a ? : that may.
void mark_allowed(const std::vector<Expression::Node>& nodes, int n, std::vector<char>& allowed) {
  allowed[static_cast<std::size_t>(n)] = 1;
  const auto& node = nodes[static_cast<std::size_t>(n)];
  if (node.kind != Expression::Kind::Ternary) return;
  mark_allowed(nodes, node.b, allowed);  // depth bounded by the parser's nesting limit
  mark_allowed(nodes, node.c, allowed);
}

void check_inactive(const std::vector<Expression::Node>& nodes, int root) {
  std::vector<char> allowed(nodes.size(), 0);
  mark_allowed(nodes, root, allowed);
  for (std::size_t k = 0; k < nodes.size(); ++k)
    if (nodes[k].kind == Expression::Kind::Inactive && !allowed[k])
      throw ExpressionError(nodes[k].column,
                            "'_' (an inactive thread) can only be the whole value or a branch of '? :'");
}

}  // namespace

Expression Expression::parse(std::string_view text, const std::vector<std::string>& registers) {
  if (text.size() > kMaxLength) throw ExpressionError(static_cast<int>(kMaxLength) + 1, "longer than 4096 characters");
  Expression e;
  ExpressionParser p(text, e, &registers);
  e.root_ = p.parse_one(false);
  check_inactive(e.nodes_, e.root_);
  return e;
}

std::vector<Expression> Expression::parse_list(std::string_view text) {
  if (text.size() > kMaxLength) throw ExpressionError(static_cast<int>(kMaxLength) + 1, "longer than 4096 characters");
  // Each expression is parsed from its own suffix of the text; its columns are then shifted so
  // that they count from the start of the whole text.
  std::vector<Expression> out;
  std::size_t from = 0;
  while (true) {
    Expression part;
    ExpressionParser q(text.substr(from), part);
    try {
      part.root_ = q.parse_one(true);
      check_inactive(part.nodes_, part.root_);
    } catch (const ExpressionError& err) {
      throw ExpressionError(err.column + static_cast<int>(from), err.reason);
    }
    for (auto& n : part.nodes_) n.column += static_cast<int>(from);
    const std::size_t end = from + q.pos();
    out.push_back(std::move(part));
    if (end >= text.size()) break;
    from = end + 1;  // past the comma
  }
  return out;
}

namespace {

[[noreturn]] void overflow(int column, const char* what) {
  const int length = static_cast<int>(std::string_view(what).size()) - 2;  // what is quoted: "'<<'"
  throw ExpressionError(column, std::string("overflow in ") + what + " (beyond 64-bit integers)", length);
}

// a op b for + - *, or an error at `column`.
std::int64_t arith(char op, std::int64_t a, std::int64_t b, int column) {
  std::int64_t r = 0;
  bool bad = false;
  switch (op) {
    case '+':
      bad = __builtin_add_overflow(a, b, &r);
      break;
    case '-':
      bad = __builtin_sub_overflow(a, b, &r);
      break;
    default:
      bad = __builtin_mul_overflow(a, b, &r);
      break;
  }
  if (bad) overflow(column, op == '+' ? "'+'" : op == '-' ? "'-'" : "'*'");
  return r;
}

// a << b as a * 2^b, b in [0, 63], checked.
std::int64_t shift_left(std::int64_t a, std::int64_t b, int column) {
  if (b == 63) {
    if (a != 0 && a != -1) overflow(column, "'<<'");
    return a == 0 ? 0 : std::numeric_limits<std::int64_t>::min();
  }
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, std::int64_t{1} << b, &r)) overflow(column, "'<<'");
  return r;
}

}  // namespace

std::optional<std::int64_t> Expression::evaluate(const ExpressionVars& v) const {
  // Recursive over the tree; `_` propagates only through ? : (checked at parse time).
  struct Eval {
    const std::vector<Node>& nodes;
    const ExpressionVars& v;
    std::optional<std::int64_t> operator()(int n) const {
      const Node& x = nodes[static_cast<std::size_t>(n)];
      switch (x.kind) {
        case Kind::Number:
          return x.value;
        case Kind::Inactive:
          return std::nullopt;
        case Kind::Register:
          if (x.value >= v.register_count)
            throw ExpressionError(x.column, "register r" + std::to_string(x.value) + " is not loaded here (" +
                                                std::to_string(v.register_count) + " registers)");
          return v.registers[x.value];
        case Kind::Name:
          switch (x.op) {
            case 't':
              return v.t;
            case 'i':
              return v.t % v.w;
            case 'j':
              return v.t / v.w;
            case 'w':
              return v.w;
            case 'b':
              return v.block;
            case 'l':
              return v.local < 0 ? v.t : v.local;
            case 'B':
              return v.tpb == 0 ? v.p : v.tpb;
            default:
              return v.p;
          }
        case Kind::Ternary:
          return value(x.a) != 0 ? (*this)(x.b) : (*this)(x.c);
        case Kind::Call: {
          const std::int64_t a = value(x.a), b = value(x.b);
          return x.op == 'm' ? std::min(a, b) : std::max(a, b);
        }
        case Kind::Unary: {
          const std::int64_t a = value(x.a);
          switch (x.op) {
            case '-':
              if (a == std::numeric_limits<std::int64_t>::min()) overflow(x.column, "'-'");
              return -a;
            case '~':
              return ~a;
            case '!':
              return a == 0 ? 1 : 0;
            default:
              return a;
          }
        }
        case Kind::Binary:
          break;
      }
      if (x.op == 'A') return value(x.a) != 0 && value(x.b) != 0 ? 1 : 0;
      if (x.op == 'O') return value(x.a) != 0 || value(x.b) != 0 ? 1 : 0;
      const std::int64_t a = value(x.a), b = value(x.b);
      switch (x.op) {
        case '+':
        case '-':
        case '*':
          return arith(x.op, a, b, x.column);
        case '/':
        case '%':
          if (b == 0) throw ExpressionError(x.column, x.op == '/' ? "division by zero" : "remainder by zero");
          if (a == std::numeric_limits<std::int64_t>::min() && b == -1) overflow(x.column, x.op == '/' ? "'/'" : "'%'");
          return x.op == '/' ? a / b : a % b;
        case 'L':
        case 'R':
          if (b < 0 || b > 63)
            throw ExpressionError(x.column, "shift count " + std::to_string(b) + " outside [0, 63]", 2);
          return x.op == 'L' ? shift_left(a, b, x.column) : a >> b;
        case '&':
          return a & b;
        case '|':
          return a | b;
        case '^':
          return a ^ b;
        case '<':
          return a < b;
        case '>':
          return a > b;
        case 'l':
          return a <= b;
        case 'g':
          return a >= b;
        case '=':
          return a == b;
        default:
          return a != b;
      }
    }
    // An operand that must be a number (parse-time checks keep `_` out of here).
    std::int64_t value(int n) const {
      const auto r = (*this)(n);
      return r ? *r : 0;
    }
  };
  return Eval{nodes_, v}(root_);
}

bool Expression::constant_over_threads() const {
  for (const auto& n : nodes_)
    if ((n.kind == Kind::Name && (n.op == 't' || n.op == 'i' || n.op == 'j' || n.op == 'b' || n.op == 'l')) ||
        n.kind == Kind::Register)
      return false;
  return true;
}

int Expression::registers_used() const {
  int used = 0;
  for (const auto& n : nodes_)
    if (n.kind == Kind::Register) used = std::max(used, static_cast<int>(n.value) + 1);
  return used;
}

std::string describe(const ExpressionError& e, std::string_view text) {
  // A window of the text around the blamed column, never the whole text (it may be kilobytes of a
  // user's), each piece made one printable line (io/printable.h): "...text before[blamed]after...".
  constexpr std::size_t kBefore = 24, kBlamed = 16, kAfter = 24;
  const auto at = std::min(static_cast<std::size_t>(std::max(e.column, 1) - 1), text.size());
  const auto len = static_cast<std::size_t>(std::max(e.length, 1));
  std::size_t from = at > kBefore ? at - kBefore : 0;
  while (from > 0 && from < at && (static_cast<unsigned char>(text[from]) & 0xc0) == 0x80) ++from;  // a whole character
  const std::string before = (from > 0 ? "..." : "") + one_line(std::string(text.substr(from, at - from)), kBefore);
  const std::string marked = at < text.size()
                                 ? before + "[" + one_line(std::string(text.substr(at, len)), kBlamed) + "]" +
                                       one_line(std::string(text.substr(std::min(text.size(), at + len))), kAfter)
                                 : before + "[end]";
  return e.reason + " at column " + std::to_string(e.column) + ": " + marked;
}

std::string register_name_problem(const std::string& name) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const bool word = std::all_of(name.begin(), name.end(), [&](char c) { return letter(c) || digit(c) || c == '_'; });
  if (name.empty() || name.size() > 32 || !word || !letter(name[0]))
    return "a name is up to 32 letters, digits and _, starting with a letter";
  for (const char* own : {"t", "i", "j", "w", "p", "lane", "warp", "block", "local", "tpb", "min", "max"})
    if (name == own) return quote(name) + " is a name of the expression language already";
  if (name.size() > 1 && name[0] == 'r' && std::all_of(name.begin() + 1, name.end(), digit))
    return quote(name) + " is a register's own name already";
  return {};
}

}  // namespace mmsim::teaching
