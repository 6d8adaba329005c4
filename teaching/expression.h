// Integer expressions of a thread's index, for posing warp accesses by formula (`mmsim access --addr
// 't*33'`, `--cell 'j, i'`): a small recursive-descent parser and a checked evaluator, no eval.
//
// Grammar (C's operators and precedence, lowest first):
//   expr    := cond
//   cond    := or ( '?' expr ':' cond )?
//   or      := and ( '||' and )*          and  := bor ( '&&' bor )*
//   bor     := bxor ( '|' bxor )*          bxor := band ( '^' band )*      band := eq ( '&' eq )*
//   eq      := rel ( ('==' | '!=') rel )*  rel  := shift ( ('<' | '<=' | '>' | '>=') shift )*
//   shift   := add ( ('<<' | '>>') add )*  add  := mul ( ('+' | '-') mul )*
//   mul     := unary ( ('*' | '/' | '%') unary )*
//   unary   := ('-' | '+' | '~' | '!') unary | primary
//   primary := NUMBER | NAME | '_' | '(' expr ')' | ('min' | 'max') '(' expr ',' expr ')'
// NUMBER is decimal or 0x hexadecimal; NAME is t (thread), i (lane, t mod w), j (warp, t / w), w, p
// (threads), lane and warp (the same as i and j, by name), block (the thread's block), local (its
// index in the block), tpb (threads per block), or a register: r0, r1, ... (the value
// an earlier step of the kernel loaded into it), or a name given for one (parse's `registers`:
// `key` for r0, say). `^` is XOR, as in C. `_` is an inactive
// thread and may stand only where the whole value is decided (the whole expression, or a branch of
// `? :` that is itself one).
//
// Evaluation is on 64-bit signed integers, as C evaluates them: `/` truncates toward zero and `%`
// takes the dividend's sign. What C leaves undefined is an error here, never undefined behaviour:
// overflow, division or remainder by zero, a shift count outside [0, 63], and a left shift whose
// result does not fit (a << b is a * 2^b, checked). `? :`, `&&` and `||` evaluate only the operand
// they need.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mmsim::teaching {

/// A bad expression, or one that cannot be evaluated for some thread: `column` (1-based) is the
/// character to blame (one past the end for an expression that ends too early).
struct ExpressionError : std::runtime_error {
  ExpressionError(int column_, std::string reason_, int length_ = 1)
      : std::runtime_error(reason_), column(column_), length(length_), reason(std::move(reason_)) {}
  int column;
  int length;  ///< characters of the blamed token (2 for <<, >=, ...)
  std::string reason;
};

/// The values the names of an expression stand for, for one thread.
struct ExpressionVars {
  std::int64_t t = 0;       ///< thread index
  std::int64_t w = 1;       ///< width
  std::int64_t p = 1;       ///< number of threads
  std::int64_t block = 0;   ///< the thread's block (0 outside a kernel)
  std::int64_t local = -1;  ///< its index inside the block (-1: t, outside a kernel)
  std::int64_t tpb = 0;     ///< threads per block (0: p, outside a kernel)
  /// The thread's registers r0 .. r(count - 1); an expression that names a register past them
  /// cannot be evaluated (ExpressionError).
  const std::int64_t* registers = nullptr;
  int register_count = 0;
};

class Expression {
 public:
  /// Parses one expression. Throws ExpressionError. At most kMaxLength characters, parentheses and
  /// operators nested at most kMaxDepth deep.
  /// `registers`: names for registers, the k-th naming rk (besides r0, r1, ... themselves).
  static Expression parse(std::string_view text, const std::vector<std::string>& registers = {});
  /// Parses a comma-separated list of expressions (commas inside parentheses belong to min / max);
  /// columns count from the start of `text`.
  static std::vector<Expression> parse_list(std::string_view text);

  /// The value for these variables, or nullopt for `_`. Throws ExpressionError, with the column of
  /// the operator, on overflow, division by zero or a shift out of range.
  std::optional<std::int64_t> evaluate(const ExpressionVars& vars) const;

  /// True when no name of the expression is t, i, j, lane, warp, block, local or a register: the
  /// same value for every thread.
  bool constant_over_threads() const;
  /// One more than the highest register the expression names (0: none): the registers it needs.
  int registers_used() const;

  /// Registers an expression may name: r0 .. r255.
  static constexpr int kMaxRegisters = 256;

  static constexpr std::size_t kMaxLength = 4096;
  static constexpr int kMaxDepth = 64;

  enum class Kind : std::uint8_t { Number, Name, Inactive, Unary, Binary, Ternary, Call, Register };
  struct Node {
    Kind kind = Kind::Number;
    char op = 0;                 ///< operator (one letter per operator, see expression.cpp) or name
    int column = 0;              ///< 1-based column of the token, for messages
    std::int64_t value = 0;      ///< Number; Register: its index
    int a = -1, b = -1, c = -1;  ///< operand nodes
  };

 private:
  friend class ExpressionParser;
  std::vector<Node> nodes_;
  int root_ = -1;
};

/// One line for a bad expression: "unexpected ')' at column 5: t*33[)]", the blamed character in
/// brackets ("[end]" past the end), so that one line of stderr points at the column. Of a long text
/// only a window is shown, at most 24 bytes either side ("...", where cut) and 16 of the blamed
/// token, each piece printable (control bytes and bytes that are not UTF-8 as '?').
std::string describe(const ExpressionError& e, std::string_view text);

/// Why `name` cannot name a register in an expression, or empty when it can: a name is 1 to 32
/// letters, digits and _, starting with a letter, and none of the language's own names (t, i, j, w,
/// p, lane, warp, block, local, tpb, min, max) or a register's (r0, r1, ...).
std::string register_name_problem(const std::string& name);

}  // namespace mmsim::teaching
