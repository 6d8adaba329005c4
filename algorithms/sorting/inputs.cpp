#include "algorithms/sorting/inputs.h"

#include <algorithm>

#include "algorithms/params.h"
#include "io/input_error.h"
#include "io/input_file.h"
#include "sim/random.h"

namespace mmsim::sorting {

std::vector<Word> random_keys(int w, std::uint64_t m, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Word> v(static_cast<std::size_t>(w) * m);
  for (auto& x : v) x = static_cast<Word>(rng.next());
  return v;
}

std::vector<Word> random_partition(int w, std::uint64_t m, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Word> v(static_cast<std::size_t>(w) * m);
  for (std::size_t x = 0; x < v.size(); ++x) v[x] = static_cast<Word>(x / m);
  rng.shuffle(std::span<Word>(v));
  return v;
}

std::vector<Word> random_permutation(int w, std::uint64_t m, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Word> v(static_cast<std::size_t>(w) * m);
  for (std::size_t x = 0; x < v.size(); ++x) v[x] = static_cast<Word>(x);
  rng.shuffle(std::span<Word>(v));
  return v;
}

std::vector<Word> random_input(Task task, int w, std::uint64_t m, std::uint64_t seed) {
  switch (task) {
    case Task::Sort:
      return random_keys(w, m, seed);
    case Task::Partition:
      return random_partition(w, m, seed);
    case Task::Permute:
      return random_permutation(w, m, seed);
  }
  return {};
}

void check_input(Task task, int w, std::uint64_t m, const std::vector<Word>& input, const std::string& source) {
  const std::uint64_t n = static_cast<std::uint64_t>(w) * m;
  if (input.size() != n)
    throw InputError(quote(source, 60) + ": needs w * m = " + std::to_string(n) + " values, has " +
                     std::to_string(input.size()));
  if (task == Task::Sort) return;  // any 32-bit keys, duplicates included
  // Partition: m copies of each row index (AS Sect. 1); permutation: each cell index once.
  const std::uint64_t range = task == Task::Partition ? static_cast<std::uint64_t>(w) : n;
  const std::uint64_t copies = task == Task::Partition ? m : 1;
  std::vector<std::uint64_t> seen(range, 0);
  for (std::size_t x = 0; x < input.size(); ++x) {
    const std::string where = source + " line " + std::to_string(x + 1) + ": ";
    if (input[x] >= range)
      throw InputError(where + "label " + std::to_string(input[x]) + " is not below " + std::to_string(range));
    if (++seen[input[x]] > copies)
      throw InputError(where + "label " + std::to_string(input[x]) + " occurs more than " + std::to_string(copies) +
                       " time(s)");
  }
}

std::vector<Word> parse_keys(std::istream& in, std::uint64_t count, const std::string& file) {
  std::vector<Word> keys;
  std::string line;
  LineReader lines(in, kMaxKeyLineChars);
  const std::string shown = quote(file, 60);
  while (lines.next(line)) {
    const std::string where = "--keys-file: " + shown + " line " + std::to_string(lines.number()) + ": ";
    if (lines.too_long())
      throw InputError(where + "longer than " + std::to_string(kMaxKeyLineChars) + " characters: " + quote(line));
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;  // blank lines are skipped
    const auto last = line.find_last_not_of(" \t\r");
    const std::string text = line.substr(first, last - first + 1);
    const bool digits = std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || text.size() > 10 || std::stoull(text) > 0xFFFFFFFFull)
      throw InputError(where + quote(text) + " is not an unsigned 32-bit integer");
    if (keys.size() == count) throw InputError(where + "more than w * m = " + std::to_string(count) + " values");
    keys.push_back(static_cast<Word>(std::stoull(text)));
  }
  if (keys.size() != count)
    throw InputError("--keys-file: " + shown + " has " + std::to_string(keys.size()) +
                     " values, needs w * m = " + std::to_string(count));
  return keys;
}

std::vector<Word> read_keys_file(const std::string& path, std::uint64_t count) {
  InputFile file("--keys-file", path, count * (kMaxKeyLineChars + 1),
                 "that w * m = " + std::to_string(count) + " values allow (" + std::to_string(kMaxKeyLineChars) +
                     " characters a line)");
  return parse_keys(file.stream(), count, path);
}

}  // namespace mmsim::sorting
