// SPDX-License-Identifier: GPL-3.0-or-later
#include "control_help.h"

#include "help_menu.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QSlider>
#include <QTextDocument>
#include <QWhatsThis>

namespace crossroof::app {

namespace {

/// What the main inputs of each view do and where their values come from, by the view and the control's name.
struct Entry
{
    const char *part;
    const char *control; ///< as its label or its own text reads, without the mnemonic's '&' or a final ':'
    const char *text;
};

constexpr Entry kControls[] = {
    {"skeleton", "Unroll",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "How many iterations of the innermost loop the core model schedules as one (1 to 16). The schedule "
       "chart, the cycles per iteration and the Z and E that Use in X-graph sets are the skeleton's at this "
       "factor. Start from the best unroll the cycles-against-unroll chart marks (the smallest factor within "
       "5 % of the fewest cycles, counting the spill code of values beyond the core's registers), or enter the "
       "factor your compiler used (its #pragma unroll, or its optimisation report).")},
    {"skeleton", "Use in X-graph",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "Sets the X-graph's Z (statements per memory request) and E (the schedule's instruction-level "
       "parallelism) to the skeleton's at the unroll factor beside it, in one undo step; the line under the "
       "chart says what it set. Refused while the X-graph shows a GPU profile: a CPU core's Z and E do not "
       "describe a GPU.")},
    {"skeleton", "Core",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "The CPU whose core model (pipelines, their latencies, the memory levels) runs the skeleton: the "
       "bundled CPU profiles that have a core model, and any imported with File > Import Profile.")},
    {"occupancy", "Registers/thread",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "Registers each thread of the kernel uses, R_T. Take it from the compiler (nvcc -Xptxas -v prints "
       "'Used N registers'; cuobjdump --dump-resource-usage lists it per kernel) or from Nsight Compute's "
       "'Registers Per Thread'. Registers are allocated per warp in the compute capability's unit, so the "
       "blocks they allow per SM fall in steps; 0 means no register limit.")},
    {"occupancy", "Block size",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "Threads per block T_r, the second number of the kernel's launch <<<grid, block>>> (Nsight Compute: "
       "'Block Size'). Warps per block are ceil(T_r / 32); the curve below steps per warp.")},
    {"occupancy", "Shared memory/block",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "Shared memory each block allocates, S_B, in bytes: the kernel's static shared memory (nvcc -Xptxas -v, "
       "'smem') plus the dynamic size of its launch (Nsight Compute: 'Static' and 'Dynamic Shared Memory Per "
       "Block'). The driver's reserve is added and the sum rounded up to the allocation unit.")},
    {"occupancy", "Compute capability",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "The GPU generation whose per-SM limits apply: warps, blocks, registers, shared memory and their "
       "allocation units. It follows the profile's compute capability when the profile has one (nvidia-smi "
       "--query-gpu=compute_cap gives a device's).")},
    {"occupancy", "Shared memory/SM",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "The shared-memory carveout C of each SM: the sizes the compute capability offers; the largest unless "
       "the kernel sets cudaFuncAttributePreferredSharedMemoryCarveout.")},
    {"zigzag", "SMs",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "Streaming multiprocessors S = P/Q the blocks are scheduled over: the profile's SM count, set again "
       "when the profile changes; change it to see another device's passes.")},
    {"zigzag", "B_a",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "Active blocks per SM, B_a: from the Occupancy view's calculator while 'B_a from the calculator' is "
       "ticked, or the number entered here.")},
    {"markov", "Groups",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "Cache groups G: threads that share one cache form a group, and groups are independent. From the "
       "machine's topology (lscpu -e, or the CPU profile's caches); a mapping strategy in Topology sets it.")},
    {"markov", "Threads each",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "Threads per group N_g: how many of the program's threads share each cache, as the threads are bound "
       "(taskset, OMP_PLACES); a mapping strategy in Topology sets it.")},
    {"markov", "Measured CPI",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "A CPI you measured (cycles divided by instructions retired, from perf stat of the multi-threaded "
       "run): its iso-CPI curve, every (p, q) that predicts it, is drawn over the surface. 'none' draws none.")},
    {"mapping", "Common p",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "The probability p that an active thread suspends per step, for every strategy without a measured p "
       "of its own: from the Markov view's Counters dialog (Table 4.4), 0.5 as the thesis' worked example.")},
    {"mapping", "Common q",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "The probability q that a suspended thread stays suspended, for every strategy without a measured q of "
       "its own: from the Markov view's Counters dialog (Table 4.5), 0.862 as the thesis' worked example.")},
    {"stability", "Resolution",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "Cells per axis of the map. It is drawn coarse first and refined to this in the background; a finer "
       "map finds narrow bistable bands at the cost of time.")},
    {"extrapolate", "Target size",
     QT_TRANSLATE_NOOP("crossroof::app::ControlHelp",
       "The application size to predict p, q and each strategy's CPI at: above the largest training size to "
       "extrapolate, which the model trees do linearly in their leaves.")},
};

/// The name a control is known by: its label's text (the label whose buddy it is) or its own.
QString controlName(const QWidget *control)
{
    QString name;
    if (const auto *button = qobject_cast<const QAbstractButton *>(control))
        name = button->text();
    if (name.isEmpty() && control->parentWidget()) {
        for (const QLabel *label : control->window()->findChildren<QLabel *>()) {
            if (label->buddy() == control) {
                name = label->text();
                break;
            }
        }
    }
    if (Qt::mightBeRichText(name)) {
        QTextDocument doc;
        doc.setHtml(name);
        name = doc.toPlainText();
    }
    name.remove(QLatin1Char('&'));
    while (name.endsWith(QLatin1Char(':')) || name.endsWith(QChar(0x2026)) || name.endsWith(QLatin1Char(' ')))
        name.chop(1);
    return name.trimmed();
}

bool isInput(const QWidget *w)
{
    return qobject_cast<const QAbstractSpinBox *>(w) || qobject_cast<const QComboBox *>(w)
           || qobject_cast<const QAbstractButton *>(w) || qobject_cast<const QSlider *>(w)
           || (qobject_cast<const QLineEdit *>(w) && !qobject_cast<const QAbstractSpinBox *>(w->parentWidget())
               && !qobject_cast<const QComboBox *>(w->parentWidget()));
}

QString asHtml(const QString &text)
{
    return Qt::mightBeRichText(text) ? text : Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
}

} // namespace

void addControlHelp(QWidget *root, const QString &part)
{
    for (QWidget *control : root->findChildren<QWidget *>()) {
        if (!isInput(control) || !control->whatsThis().isEmpty())
            continue;
        const QString name = controlName(control);
        QString text;
        for (const Entry &entry : kControls) {
            if (part == QLatin1String(entry.part) && name == QLatin1String(entry.control))
                text = QCoreApplication::translate("crossroof::app::ControlHelp", entry.text);
        }
        if (text.isEmpty())
            text = control->toolTip();
        if (text.isEmpty())
            continue;
        control->setWhatsThis(name.isEmpty() ? asHtml(text)
                                             : QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped()) + asHtml(text));
    }
}

QString helpFor(const QWidget *widget)
{
    for (const QWidget *w = widget; w; w = w->parentWidget()) {
        if (!w->whatsThis().isEmpty())
            return w->whatsThis();
    }
    return {};
}

QString showHelpForFocus(QMainWindow *window)
{
    QWidget *focus = QApplication::focusWidget();
    const QString text = helpFor(focus);
    if (text.isEmpty()) {
        showUserGuide(window);
        return {};
    }
    QWhatsThis::showText(focus->mapToGlobal(QPoint(0, focus->height())), text, focus);
    return text;
}

} // namespace crossroof::app
