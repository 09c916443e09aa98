"""Docs, data and plots are never written in place: each file is written to PATH.tmp
beside it and moved onto PATH (os.replace, one rename) only once complete, so an
interrupted run leaves the last complete file (the Python side of sim/lib.sh's
stage and publish)."""
import os


def write_text(path, text):
    tmp = path + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def savefig(fig, path, **kw):
    """fig.savefig(path) by way of path.tmp; a path that itself ends in .tmp is the
    caller's to publish and is written as it is."""
    if path.endswith(".tmp"):
        fig.savefig(path, format=os.path.splitext(path[:-4])[1][1:], **kw)
        return
    tmp = path + ".tmp"
    try:
        fig.savefig(tmp, format=os.path.splitext(path)[1][1:], **kw)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
