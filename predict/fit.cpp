#include "predict/fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace mmsim::predict {

std::vector<double> nonnegative_relative_fit(const std::vector<std::vector<double>>& rows,
                                             const std::vector<double>& times) {
  const std::size_t m = rows.size(), k = rows.empty() ? 0 : rows[0].size();
  Eigen::MatrixXd A(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(k));
  Eigen::VectorXd b(static_cast<Eigen::Index>(m));
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < k; ++j)
      A(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i][j] / times[i];
    b(static_cast<Eigen::Index>(i)) = 1.0;
  }
  unsigned duplicates = 0;  // columns equal to an earlier column in every row
  for (std::size_t j = 0; j < k; ++j)
    for (std::size_t e = 0; e < j; ++e)
      if (A.col(static_cast<Eigen::Index>(j)) == A.col(static_cast<Eigen::Index>(e))) duplicates |= 1u << j;
  std::vector<double> best(k, 0.0);
  double best_residual = b.squaredNorm();
  for (unsigned mask = 1; mask < (1u << k); ++mask) {
    if (mask & duplicates) continue;
    std::vector<Eigen::Index> cols;
    for (std::size_t j = 0; j < k; ++j)
      if (mask & (1u << j)) cols.push_back(static_cast<Eigen::Index>(j));
    Eigen::MatrixXd S(A.rows(), static_cast<Eigen::Index>(cols.size()));
    for (std::size_t c = 0; c < cols.size(); ++c) S.col(static_cast<Eigen::Index>(c)) = A.col(cols[c]);
    const Eigen::VectorXd x = S.colPivHouseholderQr().solve(b);
    if ((x.array() < 0).any() || !x.allFinite()) continue;
    const double residual = (S * x - b).squaredNorm();
    if (residual < best_residual) {
      best_residual = residual;
      std::fill(best.begin(), best.end(), 0.0);
      for (std::size_t c = 0; c < cols.size(); ++c)
        best[static_cast<std::size_t>(cols[c])] = x(static_cast<Eigen::Index>(c));
    }
  }
  return best;
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

double median_abs_of(const std::vector<double>& errors) {
  std::vector<double> a;
  for (const double e : errors) a.push_back(std::abs(e));
  return median_of(a);
}

double interval_factor_of(const std::vector<double>& errors) {
  if (errors.empty()) return 1;
  std::vector<double> logs;
  for (const double e : errors) logs.push_back(std::abs(std::log(std::max(1 + e, 1e-6))));
  std::sort(logs.begin(), logs.end());
  const auto rank = static_cast<std::size_t>(std::ceil(kIntervalCoverage * static_cast<double>(logs.size())));
  return std::exp(logs[std::max<std::size_t>(rank, 1) - 1]);
}

}  // namespace mmsim::predict
