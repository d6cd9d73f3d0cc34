#pragma once
#include <vector>

namespace bb {

// Descriptive statistics of one sample set; knows no output format.
struct Summary {
    int n = 0;
    double mean = 0;
    double stddev = 0; // sample standard deviation (n - 1); 0 when n < 2
    double median = 0;
    double min = 0;
    double max = 0;
};

Summary summarize(std::vector<double> values);

// Modified Z-scores (Iglewicz & Hoaglin) from the median absolute deviation; |z| > 3.5 is an
// outlier. Robust where the mean and σ are dragged by the outlier itself.
std::vector<double> modified_z_scores(const std::vector<double>& values);
int count_outliers(const std::vector<double>& values, double threshold = 3.5);

} // namespace bb
