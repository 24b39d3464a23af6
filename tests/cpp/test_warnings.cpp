// core/warnings: routines report NumPy's RuntimeWarnings to the handler.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {

struct Captured {
  std::vector<std::string> messages;
  WarningHandler previous;
  Captured() {
    previous = set_warning_handler([this](WarningCategory, const std::string& m) { messages.push_back(m); });
  }
  ~Captured() { set_warning_handler(previous); }
};

TEST(Warnings, AllNaNSliceWarnsOnce) {
  Captured c;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Array r = nanmax(asarray(std::vector<double>{nan, nan, 1.0, nan}, {2, 2}), Axes(0));
  EXPECT_EQ(c.messages, std::vector<std::string>{"All-NaN slice encountered"});
}

TEST(Warnings, MeanOfEmptyAndNoDegreesOfFreedom) {
  Captured c;
  mean(asarray(std::vector<double>{}, {0}));
  var(asarray(std::vector<double>{1.0}, {1}), Axes::all(), VarOptions().ddof(1));
  // NumPy's warnings, each followed by the 0 / 0 of its division.
  EXPECT_EQ(c.messages, (std::vector<std::string>{"Mean of empty slice", "invalid value encountered in divide",
                                                  "Degrees of freedom <= 0 for slice",
                                                  "invalid value encountered in divide"}));
}

TEST(Warnings, HandlerMayThrow) {
  WarningHandler previous =
      set_warning_handler([](WarningCategory, const std::string& m) { throw RuntimeError("as error: " + m); });
  EXPECT_THROW(mean(asarray(std::vector<double>{}, {0})), RuntimeError);
  set_warning_handler(previous);
}

TEST(Warnings, NoWarningForOrdinaryData) {
  Captured c;
  mean(asarray(std::vector<double>{1.0, 2.0}, {2}));
  EXPECT_TRUE(c.messages.empty());
}

}  // namespace
