// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one-dimensional searches SupplyShape and EquilibriumScan share (not part of the API): Brent's root,
// a safeguarded Newton root in log t, and a golden-section minimum in log k.

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace crossroof::core::detail {

/// Brent's method (netlib zeroin) for a zero of fn in [a, b], given fa and fb of opposite signs.
template<typename Fn>
double brentRoot(Fn &&fn, double a, double b, double fa, double fb, double xtol)
{
    if (fa == 0)
        return a;
    if (fb == 0)
        return b;
    double c = a;
    double fc = fa;
    for (int iter = 0; iter < 200; ++iter) {
        const double prevStep = b - a;
        if (std::abs(fc) < std::abs(fb)) {
            a = b;
            b = c;
            c = a;
            fa = fb;
            fb = fc;
            fc = fa;
        }
        const double tolAct = 2 * std::numeric_limits<double>::epsilon() * std::abs(b) + 0.5 * xtol;
        double step = 0.5 * (c - b);
        if (std::abs(step) <= tolAct || fb == 0)
            return b;
        if (std::abs(prevStep) >= tolAct && std::abs(fa) > std::abs(fb)) {
            // Secant or inverse quadratic interpolation, accepted only while it stays well inside the
            // bracket.
            const double cb = c - b;
            double p;
            double q;
            if (a == c) {
                const double t1 = fb / fa;
                p = cb * t1;
                q = 1 - t1;
            } else {
                const double qa = fa / fc;
                const double t1 = fb / fc;
                const double t2 = fb / fa;
                p = t2 * (cb * qa * (qa - t1) - (b - a) * (t1 - 1));
                q = (qa - 1) * (t1 - 1) * (t2 - 1);
            }
            if (p > 0)
                q = -q;
            else
                p = -p;
            if (p < 0.75 * cb * q - 0.5 * std::abs(tolAct * q) && p < std::abs(0.5 * prevStep * q))
                step = p / q;
        }
        if (std::abs(step) < tolAct)
            step = step > 0 ? tolAct : -tolAct;
        a = b;
        fa = fb;
        b += step;
        fb = fn(b);
        if ((fb > 0 && fc > 0) || (fb < 0 && fc < 0)) {
            c = a;
            fc = fa;
        }
    }
    return b;
}

/// Zero of fn(t) for t in [lo, hi] (0 < lo < hi; fn rises through zero there if `rising`, else falls),
/// solved in u = log t so that roots spanning decades are found to relative precision: Newton's method from
/// `guess`, falling back to bisection whenever a step would leave the bracket (rtsafe). fn(t) returns
/// {value, t * d value/dt}. 1e-11 is enough: a breakpoint off by that leaves F non-monotone over a stretch
/// so short that the change of F there is far below the zero tolerance.
template<typename Fn>
double logNewton(Fn &&fn, double lo, double hi, bool rising, double guess)
{
    double ulo = std::log(lo); // value < 0 at ulo, > 0 at uhi
    double uhi = std::log(hi);
    if (!rising)
        std::swap(ulo, uhi);
    double u = std::log(std::clamp(guess, lo, hi));
    double step = uhi - ulo;
    for (int i = 0; i < 100; ++i) {
        const auto [v, dv] = fn(std::exp(u));
        if (v == 0)
            break;
        (v < 0 ? ulo : uhi) = u;
        const double newton = u - v / dv;
        if (std::abs(newton - u) < 1e-11) { // converged (a step this small may not even move u)
            u = newton;
            break;
        }
        const bool inside = dv != 0 && (newton - ulo) * (newton - uhi) < 0;
        const double previous = step;
        if (inside && std::abs(newton - u) < 0.5 * std::abs(previous)) {
            step = newton - u;
            u = newton;
        } else {
            step = 0.5 * (uhi - ulo);
            u = ulo + step;
        }
        if (std::abs(step) < 1e-11)
            break;
    }
    return std::exp(u);
}

/// Golden-section search for the minimum of fn on [lo, hi] in log k (fn unimodal there). A relative width of
/// 1e-6 is plenty: the scan only needs a point where F' is negative if one exists.
template<typename Fn>
double goldenMinLog(Fn &&fn, double lo, double hi)
{
    constexpr double r = 0.6180339887498949;
    double a = std::log(lo);
    double b = std::log(hi);
    double c = b - r * (b - a);
    double d = a + r * (b - a);
    double fc = fn(std::exp(c));
    double fd = fn(std::exp(d));
    for (int i = 0; i < 200 && b - a > 1e-6; ++i) {
        if (fc <= fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = fn(std::exp(c));
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = fn(std::exp(d));
        }
    }
    return std::exp(0.5 * (a + b));
}

} // namespace crossroof::core::detail
