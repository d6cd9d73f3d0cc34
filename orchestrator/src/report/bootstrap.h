#pragma once
// Kept only for runner/nightly.cpp, which includes it: the percentile bootstrap is gone (issue
// 15); the estimates live in report/estimates.h. Remove once nightly.cpp includes that.
#include "report/estimates.h"
