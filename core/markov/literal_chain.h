// SPDX-License-Identifier: GPL-3.0-or-later
// The literal Markov solver's chain, apart from markov.h so that the many files that include the model's
// types (every hardware profile does) do not parse Eigen.
#pragma once

#include "core/markov/markov.h"

#include <Eigen/Core>

#include <cstddef>

namespace crossroof::core {

/// The literal Markov chain of appendix A: the dense system matrix over all prod_g (N_g + 1) states, built
/// as the Kronecker product of the group matrices (Eq. 4), and power steps from all-active. Slow by design
/// (O(states^2) per step): it exists to cross-check the exact solver.
class LiteralMarkovChain
{
public:
    /// Builds the system matrix. Throws InputError for an invalid topology or above kLiteralStateLimit.
    explicit LiteralMarkovChain(const MarkovTopology &topology);

    /// One group's (N+1) x (N+1) one-step matrix, state = suspended threads (Eq. 1-3 as the binomial
    /// convolution T[i][m+n] += C(i,m) q^m (1-q)^(i-m) C(N-i,n) p^n (1-p)^(N-i-n)).
    static Eigen::MatrixXd groupMatrix(int threads, double p, double q);

    std::size_t stateCount() const { return std::size_t(m_matrix.rows()); }
    /// Row-stochastic system matrix; state index = mixed radix of the groups' suspended counts, group 0
    /// most significant: 0 is all-active, the last state all-suspended.
    const Eigen::MatrixXd &matrix() const { return m_matrix; }

    /// The state distribution after STEPS steps from all-active (u P^t, Eq. 18).
    Eigen::VectorXd distributionAfter(long long steps) const;
    /// P_all after STEPS steps. Throws InputError if the work (steps x states^2) exceeds kLiteralWorkLimit.
    MarkovResult transient(long long steps) const;
    /// Power steps until the long-run average of the distribution settles (appendix A takes t = 1000; this
    /// steps on until the estimated error of 1 - P_all is below 1e-13 of it). Averaging two consecutive
    /// steps makes periodic chains (p = 1, q = 0) converge too. Throws InputError when the work limit is
    /// reached first, which happens when |q - p| is close to 1 on a large chain.
    MarkovResult steadyState() const;

    /// Most multiply-adds (steps x states^2) one solve may spend: about a minute.
    static constexpr double kLiteralWorkLimit = 1e11;

private:
    MarkovResult resultFrom(const Eigen::VectorXd &distribution) const;
    void step(const Eigen::VectorXd &from, Eigen::VectorXd &to) const;

    Eigen::MatrixXd m_matrix;
};

} // namespace crossroof::core
