// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/vector_state.h"

#include <QCoreApplication>
#include <QObject>
#include <QPointer>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CROSSROOF_HAVE_VZEROUPPER 1
#endif

namespace crossroof::widgets {

namespace {

#ifdef CROSSROOF_HAVE_VZEROUPPER
__attribute__((target("avx"))) void zeroUpper()
{
    _mm256_zeroupper();
}

const bool kHaveAvx = __builtin_cpu_supports("avx");
#endif

class VectorStateGuard : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *, QEvent *) override
    {
        clearUpperVectorState();
        return false;
    }
};

} // namespace

void clearUpperVectorState()
{
#ifdef CROSSROOF_HAVE_VZEROUPPER
    if (kHaveAvx)
        zeroUpper();
#endif
}

void guardVectorState(QCoreApplication *app)
{
    static QPointer<VectorStateGuard> guard; // a child of the application it filters, gone with it
    if (!app || (guard && guard->parent() == app))
        return;
    guard = new VectorStateGuard(app);
    app->installEventFilter(guard);
}

} // namespace crossroof::widgets
