// exp and integer powers correctly rounded, for Ribbon's sizing (rocksdb_ribbon_sizing.cc), which
// must not depend on the C library: RocksDB computes its FP-rate target with glibc's exp and pow,
// and the last bits of those differ between C libraries and even between glibc's own FMA and
// non-FMA code paths, which glibc picks by CPU. The correctly rounded value is the one result every
// accurate implementation agrees on nearly always (glibc's exp and pow are within 0.52 ulp).
//
// Method: double-double arithmetic (a value is an unevaluated sum hi + lo of two doubles, about 106
// bits), built from + - * / only, whose IEEE-754 results are the same on every target. Products
// use Dekker's splitting, not FMA, so no instruction the targets lack is needed. The final hi + lo
// rounds to the double nearest the double-double value, which is within 2^-95 (relative) of the
// exact result; so the result is correctly rounded unless the exact value lies within 2^-95 of a
// midpoint between two doubles, about one input in 2^42. Either way every target computes the
// same double.
#include <cmath>

#include "filter/rocksdb_ribbon_internal.h"

namespace sstfilter::rocksdb_ribbon {
namespace {

struct DoubleDouble {
  double hi;
  double lo;  // |lo| <= ulp(hi) / 2 after normalisation
};

// Knuth's TwoSum: hi + lo == a + b exactly, hi = fl(a + b).
DoubleDouble TwoSum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

// The same for |a| >= |b| (Dekker's FastTwoSum).
DoubleDouble FastTwoSum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

// Veltkamp's split: a == hi + lo with hi of at most 26 significant bits and lo of at most 26, so
// products of halves are exact. |a| < 2^995.
void Split(double a, double* hi, double* lo) {
  const double t = 134217729.0 * a;  // 2^27 + 1
  *hi = t - (t - a);
  *lo = a - *hi;
}

// Dekker's TwoProduct: hi + lo == a * b exactly, hi = fl(a * b).
DoubleDouble TwoProduct(double a, double b) {
  const double p = a * b;
  double a_hi, a_lo, b_hi, b_lo;
  Split(a, &a_hi, &a_lo);
  Split(b, &b_hi, &b_lo);
  return {p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo};
}

// Relative error below 2^-104 for each of the three operations.
DoubleDouble Multiply(DoubleDouble x, DoubleDouble y) {
  DoubleDouble p = TwoProduct(x.hi, y.hi);
  p.lo += x.hi * y.lo + x.lo * y.hi;
  return FastTwoSum(p.hi, p.lo);
}

DoubleDouble Add(DoubleDouble x, DoubleDouble y) {
  DoubleDouble s = TwoSum(x.hi, y.hi);
  const DoubleDouble t = TwoSum(x.lo, y.lo);
  s.lo += t.hi;
  s = FastTwoSum(s.hi, s.lo);
  s.lo += t.lo;
  return FastTwoSum(s.hi, s.lo);
}

DoubleDouble Divide(DoubleDouble x, double d) {
  const double q = x.hi / d;
  const DoubleDouble p = TwoProduct(q, d);
  return FastTwoSum(q, (((x.hi - p.hi) - p.lo) + x.lo) / d);
}

// ln 2 to about 2^-110: the double nearest it, then the double nearest the remainder.
constexpr DoubleDouble kLn2 = {0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56};
constexpr double kInvLn2 = 0x1.71547652b82fep+0;

// Terms of the Taylor series of exp(r) for |r| <= ln(2)/2: the first omitted one,
// 0.35^24 / 24!, is below 2^-110.
constexpr int kExpTerms = 24;

struct InverseFactorials {
  DoubleDouble value[kExpTerms];
  InverseFactorials() {
    value[0] = {1.0, 0.0};
    for (int i = 1; i < kExpTerms; ++i) value[i] = Divide(value[i - 1], i);
  }
};

}  // namespace

// Domain |x| <= 64 (Ribbon's sizing needs -25 <= x < 0). exp(x) = 2^m * exp(r) with m the integer
// nearest x / ln 2 and r = x - m ln 2 in double-double (absolute error below 2^-98), then a Horner
// evaluation of the Taylor series of exp(r).
double CorrectlyRoundedExp(double x) {
  static const InverseFactorials kInverseFactorials;
  const double m = std::floor(x * kInvLn2 + 0.5);
  const DoubleDouble m_ln2 = Multiply({m, 0.0}, kLn2);
  const DoubleDouble r = Add({x, 0.0}, {-m_ln2.hi, -m_ln2.lo});
  DoubleDouble sum = kInverseFactorials.value[kExpTerms - 1];
  for (int i = kExpTerms - 2; i >= 0; --i) {
    sum = Add(Multiply(sum, r), kInverseFactorials.value[i]);
  }
  // Scaling by 2^m is exact, so the rounding of hi + lo is that of the unscaled sum.
  const int exponent = static_cast<int>(m);
  return std::ldexp(sum.hi, exponent) + std::ldexp(sum.lo, exponent);
}

// Domain x > 0, 1 <= k <= 64, every power x^(2^i) involved a normal double. Binary
// exponentiation: at most 6 squarings and 7 products, each adding 2^-104, squarings doubling the
// relative error they inherit.
double CorrectlyRoundedPow(double x, int k) {
  DoubleDouble result = {1.0, 0.0};
  DoubleDouble power = {x, 0.0};
  for (unsigned e = static_cast<unsigned>(k);;) {
    if (e & 1) result = Multiply(result, power);
    e >>= 1;
    if (e == 0) break;
    power = Multiply(power, power);
  }
  return result.hi + result.lo;
}

}  // namespace sstfilter::rocksdb_ribbon
