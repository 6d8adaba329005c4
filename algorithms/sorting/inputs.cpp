#include "algorithms/sorting/inputs.h"

#include <algorithm>
#include <fstream>

#include "algorithms/input_error.h"
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
    throw InputError(source + ": needs w * m = " + std::to_string(n) + " values, has " + std::to_string(input.size()));
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

std::vector<Word> read_keys_file(const std::string& path, std::uint64_t count) {
  std::ifstream in(path);
  if (!in) throw InputError("--keys-file: cannot read " + path);
  std::vector<Word> keys;
  std::string line;
  std::uint64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;  // blank lines are skipped
    const auto last = line.find_last_not_of(" \t\r");
    const std::string text = line.substr(first, last - first + 1);
    const bool digits = std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || text.size() > 10 || std::stoull(text) > 0xFFFFFFFFull)
      throw InputError("--keys-file: " + path + " line " + std::to_string(number) + ": '" + text +
                       "' is not an unsigned 32-bit integer");
    if (keys.size() == count)
      throw InputError("--keys-file: " + path + " line " + std::to_string(number) +
                       ": more than w * m = " + std::to_string(count) + " values");
    keys.push_back(static_cast<Word>(std::stoull(text)));
  }
  if (keys.size() != count)
    throw InputError("--keys-file: " + path + " has " + std::to_string(keys.size()) +
                     " values, needs w * m = " + std::to_string(count));
  return keys;
}

}  // namespace mmsim::sorting
