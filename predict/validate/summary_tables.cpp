#include "predict/validate/summary_tables.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "predict/cost_model.h"
#include "predict/gpu_profile.h"
#include "predict/model_choice.h"
#include "predict/validate/csv_rows.h"
#include "report/table.h"

namespace mmsim::predict {

namespace {

const std::vector<std::string> kKni = {"conventional", "scheduled", "in-place"};
// The per-run tables of the KNI sizes, smallest first: validate.csv holds 2^20..2^24.
const std::vector<std::string> kKniFiles = {"validate.csv", "validate-n67108864.csv", "validate-n268435456.csv"};
const std::string kParmFile = "validate-parm.csv";
const std::string kNotInCounts = "not in the counts file";  // prediction_table's "simulated" for such a run

bool is_kni(const std::string& family) { return std::find(kKni.begin(), kKni.end(), family) != kKni.end(); }

// The model whose error a validate CSV's column holds ("dram_rows_error" -> dram-rows: the CSV's
// keys are snake_case, report::column_key, and every model's name is lower case and hyphenated).
std::optional<std::string> model_of_column(const std::string& column) {
  const std::string suffix = "_error";
  if (column.size() <= suffix.size() || column.compare(column.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  std::string model = column.substr(0, column.size() - suffix.size());
  std::replace(model.begin(), model.end(), '_', '-');
  return model;
}

// One per-run validate table: its models (in column order) and its rows.
struct RunTable {
  std::vector<std::string> models;
  std::vector<validate::CsvRow> rows;
};

RunTable read_runs(const std::filesystem::path& file) {
  RunTable t;
  for (const std::string& column : validate::read_csv_header(file, "--tables")) {
    if (const auto model = model_of_column(column)) t.models.push_back(*model);
  }
  if (t.models.empty()) throw std::invalid_argument(file.string() + ": no column 'MODEL_error': not a validate table");
  std::vector<std::string> required = {"family", "type", "n", "simulated", "model_known_to_fail"};
  for (const std::string& m : t.models) required.push_back(report::column_key(m + " ms"));
  t.rows = validate::read_csv_rows(file, required, "--tables");
  return t;
}

// The family parm's reader names its rows (predict/validate/parm.cpp).
const std::string kParmFamily = "parm sort";

// A table of `dir`, less the parm network's rows when it is not validate-parm.csv and the folder
// has that file: validate.csv holds the parm rows of 2^20..2^24 too, and since rows up to 2^20
// are simulated, the 2^20 ones would be counted twice.
RunTable read_runs_once(const std::filesystem::path& dir, const std::string& name) {
  RunTable t = read_runs(dir / name);
  if (name != kParmFile && std::filesystem::exists(dir / kParmFile))
    std::erase_if(t.rows, [](const validate::CsvRow& r) { return r.text("family") == kParmFamily; });
  return t;
}

// A row the models priced (a program mirrors the kernel and its counts were there).
bool priced(const RunTable& t, const validate::CsvRow& r) {
  return !r.text(report::column_key(t.models.front() + " ms")).empty();
}

// Relative errors predicted / measured - 1 of one model over some rows.
std::vector<double> errors(const std::string& model, const std::vector<const validate::CsvRow*>& rows) {
  std::vector<double> out;
  for (const validate::CsvRow* r : rows) out.push_back(r->number(report::column_key(model + " error")));
  return out;
}

double median_abs(std::vector<double> e) {
  for (double& x : e) x = std::abs(x);
  std::sort(e.begin(), e.end());
  const std::size_t h = e.size() / 2;
  return e.size() % 2 ? e[h] : (e[h - 1] + e[h]) / 2;
}

double worst_factor(const std::vector<double>& e) {
  double worst = 0;
  for (double x : e) worst = std::max({worst, 1 + x, 1 / (1 + x)});
  return worst;
}

std::string format(const char* spec, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, spec, x);
  return buf;
}

// "median, worst" as the per-family tables give them: two decimals, the factor with one past 10.
std::string cell(const std::vector<double>& e) {
  const double w = worst_factor(e);
  return format("%.2f", median_abs(e)) + ", " + format(w < 10 ? "%.2fx" : "%.1fx", w);
}

std::string power(std::uint64_t n) { return "2^" + std::to_string(static_cast<int>(std::lround(std::log2(n)))); }

std::string n_range(const std::vector<const validate::CsvRow*>& rows) {
  std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
  for (const validate::CsvRow* r : rows) {
    lo = std::min(lo, r->integer("n"));
    hi = std::max(hi, r->integer("n"));
  }
  return lo == hi ? power(lo) : power(lo) + ".." + power(hi);
}

std::string known_failures(const std::vector<const validate::CsvRow*>& rows) {
  return std::to_string(std::count_if(
      rows.begin(), rows.end(), [](const validate::CsvRow* r) { return !r->text("model_known_to_fail").empty(); }));
}

std::string markdown(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& rows) {
  std::string out = "|";
  for (const std::string& h : head) out += " " + h + " |";
  out += "\n|";
  for (std::size_t i = 0; i < head.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& row : rows) {
    out += "|";
    for (const std::string& c : row) out += " " + c + " |";
    out += "\n";
  }
  return out;
}

std::string marked(const std::string& name, const std::string& command, const std::string& table) {
  return "<!-- prediction table " + name + ": " + command + " -->\n" + table + "<!-- end of prediction table " + name +
         " -->\n";
}

// The models every table prices, in the first table's order: files written before a model was
// retired still hold its columns, and the tables leave them out.
std::vector<std::string> shared_models(const std::vector<ValidateFolder>& folders) {
  std::vector<std::string> models;
  bool first = true;
  for (const ValidateFolder& folder : folders) {
    std::vector<std::string> names = kKniFiles;
    names.push_back(kParmFile);
    for (const std::string& name : names) {
      const std::filesystem::path file = folder.dir / name;
      if (!std::filesystem::exists(file)) continue;
      std::vector<std::string> these;
      for (const std::string& column : validate::read_csv_header(file, "--tables")) {
        if (const auto model = model_of_column(column)) these.push_back(*model);
      }
      if (first) {
        models = these;
        first = false;
      } else {
        std::erase_if(models,
                      [&](const std::string& m) { return std::find(these.begin(), these.end(), m) == these.end(); });
      }
    }
  }
  return models;
}

// Whether a table has the columns of `model`.
bool prices(const RunTable& t, const std::string& model) {
  return std::find(t.models.begin(), t.models.end(), model) != t.models.end();
}

// The models every table shares: those of the first table read; another table must have them too.
void check_models(const std::vector<std::string>& models, const RunTable& t, const std::filesystem::path& file) {
  for (const std::string& m : models)
    if (!prices(t, m))
      throw std::invalid_argument(file.string() + ": no model " + m + ", which the first table read has");
}

// The folder's own profile, where it holds one.
std::optional<GpuProfile> own_profile(const ValidateFolder& folder) {
  if (folder.profile.empty() || !std::filesystem::exists(folder.profile)) return std::nullopt;
  return read_profile(folder.profile);
}

// A table of a folder that holds its profile must have been priced with that profile: its rows'
// profile date and simulated L2 are the profile's (a table written before those columns is taken
// as it is). Otherwise its errors and the profile's interval and choice would not belong together,
// as after a profile is replaced and its tables not yet priced again.
void check_priced_with(const RunTable& t, const std::filesystem::path& file, const std::optional<GpuProfile>& profile) {
  if (!profile) return;
  const std::string cache = std::to_string(profile->memory.cache_bytes);
  for (const validate::CsvRow& r : t.rows) {
    const auto date = r.fields.find("profile_date"), bytes = r.fields.find("cache_bytes");
    const bool other_date = date != r.fields.end() && !date->second.empty() && date->second != profile->date;
    const bool other_cache = bytes != r.fields.end() && !bytes->second.empty() && bytes->second != cache;
    if (other_date || other_cache)
      throw std::invalid_argument(file.string() + ": priced with the profile of " +
                                  (date == r.fields.end() ? std::string("?") : date->second) + " (L2 " +
                                  (bytes == r.fields.end() ? std::string("?") : bytes->second) +
                                  " bytes), not the folder's profile of " + profile->date + " (L2 " + cache +
                                  " bytes): run mmsim validate again with it");
  }
}

// The chosen model's cell of some rows: "-" where the table does not price that model.
std::string chosen_cell(const std::string& chosen, const RunTable& t,
                        const std::vector<const validate::CsvRow*>& rows) {
  if (chosen.empty() || !prices(t, chosen)) return "-";
  return cell(errors(chosen, rows));
}

// A prediction's error (predicted / measured - 1) and the factor of the interval printed with it.
struct Bracketed {
  double error = 0, factor = 1;
};

// One row of the intervals table: the chosen model's errors over some data, and how many of its
// predictions their interval holds (|ln(predicted / measured)| <= ln(interval factor)).
std::vector<std::string> interval_row(const std::string& gpu, const std::string& data,
                                      const std::vector<Bracketed>& b) {
  std::vector<double> e;
  for (const Bracketed& x : b) e.push_back(x.error);
  const auto inside = std::count_if(b.begin(), b.end(), [](const Bracketed& x) {
    return std::abs(std::log(std::max(1 + x.error, 1e-12))) <= std::log(x.factor) * (1 + 1e-12);
  });
  return {gpu, data, std::to_string(e.size()), cell(e),
          format("%.0f %%", e.empty() ? 0.0 : 100.0 * static_cast<double>(inside) / static_cast<double>(e.size()))};
}

// " (unseen)", or where runs carry their own interval (the instruction term's, a column of the run
// tables), " (unseen; its own interval x/F)" when every run does, " (unseen; N with their own
// interval x/F)" when only N do, F the factor they share or its range.
std::string unseen_label(const std::vector<Bracketed>& b, double profile_factor) {
  double lo = 0, hi = 0;
  std::size_t own = 0;
  for (const Bracketed& x : b) {
    if (x.factor == profile_factor) continue;
    ++own;
    lo = lo == 0 ? x.factor : std::min(lo, x.factor);
    hi = std::max(hi, x.factor);
  }
  if (own == 0) return " (unseen)";
  const std::string range = "x/" + format("%.2f", lo) + (hi > lo ? "-" + format("%.2f", hi) : "");
  if (own == b.size()) return " (unseen; its own interval " + range + ")";
  return " (unseen; " + std::to_string(own) + " with their own interval " + range + ")";
}

// Per GPU whose folder holds its profile (profile-<device>.json) with a recorded model choice: the
// chosen model's error on the data the choice saw (the microbenchmarks, fitted on all of them) and
// on data it did not (each microbenchmark with its pattern left out; every algorithm's runs), with
// the share of each inside the interval printed with it: the profile's, or a run's own where its
// table gives one (the column `interval factor`).
// `owns`: each folder's own profile (own_profile), in the folders' order.
std::string intervals_markdown(const std::vector<ValidateFolder>& folders,
                               const std::vector<std::optional<GpuProfile>>& owns) {
  std::vector<std::vector<std::string>> rows;
  for (std::size_t k = 0; k < folders.size(); ++k) {
    const ValidateFolder& folder = folders[k];
    if (!owns[k]) continue;
    const GpuProfile& profile = *owns[k];
    const HeldOutError* held = profile.choice.of(profile.choice.chosen);
    if (held == nullptr || profile.timing_counts.size() != profile.timings.size()) continue;
    const std::string& model = profile.choice.chosen;
    const double factor = held->interval_factor;
    const std::string gpu = folder.gpu + " (" + model + ", interval x/" + format("%.2f", factor) + ")";
    std::vector<Bracketed> fitted, left_out;
    const std::vector<double> held_out =
        held_out_predictions(profile.model(model), profile.timings, profile.timing_counts);
    for (std::size_t i = 0; i < profile.timings.size(); ++i) {
      fitted.push_back(
          {predicted_ms(profile.model(model), profile.timing_counts[i]) / profile.timings[i].median_ms - 1, factor});
      left_out.push_back({held_out[i] / profile.timings[i].median_ms - 1, factor});
    }
    rows.push_back(interval_row(gpu, "microbenchmarks, fitted on all (seen)", fitted));
    rows.push_back(interval_row("", "microbenchmarks, each with its pattern left out", left_out));
    // Every algorithm run the tables price: data no choice looked at.
    std::vector<std::pair<std::string, std::vector<Bracketed>>> families;
    const auto add = [&](const std::string& family, Bracketed b) {
      auto it = std::find_if(families.begin(), families.end(), [&](const auto& f) { return f.first == family; });
      if (it == families.end()) it = families.insert(families.end(), {family, {}});
      it->second.push_back(b);
    };
    std::vector<std::string> files = kKniFiles;
    files.push_back(kParmFile);
    for (const std::string& name : files) {
      if (!std::filesystem::exists(folder.dir / name)) continue;
      const RunTable t = read_runs_once(folder.dir, name);
      if (!prices(t, model)) continue;
      for (const validate::CsvRow& r : t.rows) {
        if (!priced(t, r)) continue;
        // Tables written before the column have none: the profile's interval.
        const auto own = r.fields.find("interval_factor");
        const double f = own == r.fields.end() || own->second.empty() ? factor : r.number("interval_factor");
        add(is_kni(r.text("family")) ? "KNI tables" : r.text("family"),
            {r.number(report::column_key(model + " error")), f});
      }
    }
    std::vector<Bracketed> all;
    for (const auto& [family, b] : families) {
      rows.push_back(interval_row("", family + unseen_label(b, factor), b));
      all.insert(all.end(), b.begin(), b.end());
    }
    if (!all.empty()) rows.push_back(interval_row("", "every algorithm run" + unseen_label(all, factor), all));
  }
  if (rows.empty()) return "(no folder holds its profile with a recorded model choice)\n";
  return markdown({"GPU (chosen model, interval)", "data", "runs", "median, worst", "inside the interval"}, rows);
}

}  // namespace

ValidateFolder validate_folder(const std::filesystem::path& dir) {
  const auto capitals = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
    return s;
  };
  const std::string name = (dir.has_filename() ? dir : dir.parent_path()).filename().string();
  if (name.rfind("gpu-", 0) == 0) {
    const std::string slug = name.substr(4);
    return {capitals(slug), dir, dir / ("profile-" + slug + ".json")};
  }
  // Another folder (a recalibration's, say): named by the device of the one profile it holds.
  std::vector<std::filesystem::path> profiles;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind("profile-", 0) == 0 && entry.path().extension() == ".json") profiles.push_back(entry.path());
  }
  if (profiles.size() != 1) return {capitals(name), dir, {}};
  const std::string stem = profiles.front().stem().string();
  return {capitals(stem.substr(std::string("profile-").size())) + ", " + name, dir, profiles.front()};
}

std::string prediction_tables_markdown(const std::vector<ValidateFolder>& folders, const std::string& command) {
  std::vector<std::string> models = shared_models(folders);
  std::vector<std::vector<std::string>> kni, overall, families;
  // Besides the models every table shares, a last column: each GPU's own default, the model its
  // profile chose, which the shared columns may lack (a profile of more models than another's).
  std::vector<std::optional<GpuProfile>> owns;
  std::string choices;
  for (const ValidateFolder& folder : folders) {
    owns.push_back(own_profile(folder));
    if (owns.back() && !owns.back()->choice.chosen.empty())
      choices += (choices.empty() ? "" : ", ") + folder.gpu + " " + owns.back()->choice.chosen;
  }
  for (std::size_t i = 0; i < folders.size(); ++i) {
    const ValidateFolder& folder = folders[i];
    const std::optional<GpuProfile>& own = owns[i];
    const std::string chosen = own ? own->choice.chosen : "";
    std::vector<std::vector<double>> pooled;
    std::vector<double> pooled_chosen;
    bool chosen_priced = !chosen.empty();
    bool first_family = true;
    for (const std::string& name : kKniFiles) {
      const std::filesystem::path file = folder.dir / name;
      if (!std::filesystem::exists(file)) continue;
      const RunTable t = read_runs_once(folder.dir, name);
      check_priced_with(t, file, own);
      if (models.empty()) models = t.models;
      check_models(models, t, file);
      if (pooled.empty()) pooled.resize(models.size());
      bool first_row = true;
      for (const std::string& family : kKni) {
        std::vector<const validate::CsvRow*> rows;
        std::size_t missing = 0;
        for (const validate::CsvRow& r : t.rows) {
          if (r.text("family") != family) continue;
          if (priced(t, r))
            rows.push_back(&r);
          else if (r.text("simulated") == kNotInCounts)
            ++missing;
        }
        if (rows.empty()) continue;
        const std::string runs = missing == 0
                                     ? std::to_string(rows.size())
                                     : std::to_string(rows.size()) + " of " + std::to_string(rows.size() + missing);
        std::vector<std::string> row{first_row ? folder.gpu + ", " + n_range(rows) : "", family + " (" + runs + ")"};
        first_row = false;
        for (const std::string& m : models) row.push_back(cell(errors(m, rows)));
        if (!choices.empty()) row.push_back(chosen_cell(chosen, t, rows));
        kni.push_back(std::move(row));
      }
      // Every KNI float run priced, pooled over the sizes.
      std::vector<const validate::CsvRow*> floats;
      for (const validate::CsvRow& r : t.rows)
        if (is_kni(r.text("family")) && r.text("type") == "float" && priced(t, r)) floats.push_back(&r);
      for (std::size_t m = 0; m < models.size(); ++m) {
        const auto e = errors(models[m], floats);
        pooled[m].insert(pooled[m].end(), e.begin(), e.end());
      }
      if (!prices(t, chosen)) {
        chosen_priced = false;
      } else {
        const auto e = errors(chosen, floats);
        pooled_chosen.insert(pooled_chosen.end(), e.begin(), e.end());
      }
      // The other families, from the table of every family (2^20..2^24 and the one-warp ones).
      if (name != kKniFiles.front()) continue;
      std::vector<std::string> order;
      for (const validate::CsvRow& r : t.rows)
        if (priced(t, r) && std::find(order.begin(), order.end(), r.text("family")) == order.end())
          order.push_back(r.text("family"));
      order.push_back("all");
      for (const std::string& family : order) {
        if (is_kni(family)) continue;
        std::vector<const validate::CsvRow*> rows;
        for (const validate::CsvRow& r : t.rows)
          if (priced(t, r) && (family == "all" || r.text("family") == family)) rows.push_back(&r);
        std::vector<std::string> row{first_family ? folder.gpu : "",
                                     family + " (" + std::to_string(rows.size()) + "; " + known_failures(rows) + ")"};
        first_family = false;
        for (const std::string& m : models) row.push_back(cell(errors(m, rows)));
        if (!choices.empty()) row.push_back(chosen_cell(chosen, t, rows));
        families.push_back(std::move(row));
      }
    }
    const auto pooled_cell = [](const std::vector<double>& e) {
      return format("%.3f", median_abs(e)) + ", " + format("%.2fx", worst_factor(e));
    };
    if (!pooled.empty() && !pooled.front().empty()) {
      std::vector<std::string> row{folder.gpu + " (" + std::to_string(pooled.front().size()) + " runs)"};
      for (const auto& e : pooled) row.push_back(pooled_cell(e));
      // A table without the chosen model's columns leaves the pooled figure out.
      if (!choices.empty()) row.push_back(chosen_priced && !pooled_chosen.empty() ? pooled_cell(pooled_chosen) : "-");
      overall.push_back(std::move(row));
    }
    // parm's network, simulated up to 2^20 (validate --families parm --min-n 4096 --max-n 1048576).
    const std::filesystem::path parm = folder.dir / kParmFile;
    if (std::filesystem::exists(parm)) {
      const RunTable t = read_runs(parm);
      check_priced_with(t, parm, own);
      if (models.empty()) models = t.models;
      check_models(models, t, parm);
      std::vector<std::string> order;
      for (const validate::CsvRow& r : t.rows)
        if (priced(t, r) && std::find(order.begin(), order.end(), r.text("family")) == order.end())
          order.push_back(r.text("family"));
      for (const std::string& family : order) {
        std::vector<const validate::CsvRow*> rows;
        for (const validate::CsvRow& r : t.rows)
          if (priced(t, r) && r.text("family") == family) rows.push_back(&r);
        std::vector<std::string> row{
            first_family ? folder.gpu : "",
            family + ", " + n_range(rows) + " (" + std::to_string(rows.size()) + "; " + known_failures(rows) + ")"};
        first_family = false;
        for (const std::string& m : models) row.push_back(cell(errors(m, rows)));
        if (!choices.empty()) row.push_back(chosen_cell(chosen, t, rows));
        families.push_back(std::move(row));
      }
    }
  }
  if (models.empty())
    throw std::invalid_argument("no validate table (validate.csv, validate-n*.csv) in the folders given");
  const auto heading = [&](std::vector<std::string> head) {
    head.insert(head.end(), models.begin(), models.end());
    if (!choices.empty()) head.push_back("chosen (" + choices + ")");
    return head;
  };
  std::string out = marked("kni", command, markdown(heading({"GPU, n", "family"}), kni)) + "\n";
  out += marked("overall", command, markdown(heading({"GPU"}), overall)) + "\n";
  out += marked("families", command, markdown(heading({"GPU", "family"}), families)) + "\n";
  out += marked("intervals", command, intervals_markdown(folders, owns));
  return out;
}

}  // namespace mmsim::predict
