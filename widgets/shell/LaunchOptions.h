#pragma once
// Command-line options of the trainscope GUI, e.g. for documentation and tests:
//   trainscope --preset NAME --run --screenshot FILE.png --quit-when-done
//   trainscope --open RUN_DIR_OR_TRACE --view timeline --screenshot t.png --quit-when-done
//   trainscope --open A.json --open B.json.gz   (or: trainscope A.json B.json.gz)
//   trainscope --open T.json --view timeline --find aten::conv2d --screenshot t.png
//   trainscope --preset P --processes 2 --run   (a data-parallel job of two local ranks)
//   trainscope --open T.json --view timeline --timings --quit-when-done   (open times)
//   trainscope --open T.json --step 3 --view operators   (every view of step 3)
//   trainscope --live-jobs --trace-steps 3 --screenshot j.png   (trace a running job)
//   trainscope --script train.py --python ~/venv/bin/python --script-args "--epochs 1" --run
//              --view live --screenshot s.png --quit-when-done   (the user's own script)
#include <optional>

#include <QSize>
#include <QStringList>

namespace ts::gui {

struct LaunchOptions {
    QString preset;
    QString config_file;   // experiment JSON
    QStringList overrides; // key=value, applied after preset / config
    bool run = false;
    QStringList open;           // run directories or trace files, opened in this order
    QString view;               // live | operators | timeline | runs
    QString find;               // timeline: select the first event named like this, zoom to it
    bool critical_path = false; // timeline: draw the first step's critical path
    bool area = false;          // timeline: the area of the event --find selected
    QString query;              // Query tab: this SQL, run
    qint64 step = -1;           // pick ProfilerStep#N of the opened trace for every view
    QString compare_with;       // an opened path: the tables show B − A against it
    QString screenshot;         // PNG written when the run (or the open) is done
    bool quit_when_done = false;
    QString runs_dir;      // where new runs go (default ./runs)
    QString theme;         // system | light | dark
    QString settings_file; // ini file instead of the user's settings
    QSize size;            // window size for screenshots (invalid = saved/default)
    bool no_checkpoints = false;
    int processes = 0;      // --processes: local data-parallel ranks (0 = the form's, as saved)
    bool timings = false;   // --timings: print when each document was read, shown and drawn
    bool live_jobs = false; // show the Live jobs panel (it answers the PyTorch jobs)
    int trace_steps = 0;    // --live-jobs: trace the first job that polls for N steps, open it
    QString script;         // the Python script kind of run, with this script
    QString python;         // --script: its interpreter (default: the form's)
    QString script_args;    // --script: its arguments, split like a shell (null: the form's)

    bool automated() const {
        return run || !open.isEmpty() || !screenshot.isEmpty() || quit_when_done || trace_steps > 0;
    }
};

// Parses QCoreApplication::arguments()-style lists. Returns nullopt and sets
// `error` (a sentence naming the option) on bad input; --help/--version are
// handled by the caller via `helpText`.
std::optional<LaunchOptions> parseLaunchOptions(const QStringList& arguments, QString* error,
                                                QString* helpText);

// The help or version text when `arguments` ask for it and parse; nullopt
// otherwise (also when they hold options only QApplication knows, such as
// -platform: runApplication answers those after QApplication has taken its own).
std::optional<QString> helpOrVersionText(const QStringList& arguments);

} // namespace ts::gui
