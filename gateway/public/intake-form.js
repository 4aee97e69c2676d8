// Intake's enhancement of forms that post from the browser (docs/static-sites.md): plain
// JavaScript, no build step. It sends a form marked `data-intake-form` with fetch (with
// XMLHttpRequest when it holds files, to show the upload's progress), has the challenge widget
// solve its challenge first, shows each refused field beside it, and goes on to the thank-you
// address the gateway answers with. Without it the same form posts by itself.
(function () {
  'use strict';

  var TEXTS = {
    sending: 'Sending…',
    checking: 'Checking that you are a person…',
    fix: 'Please correct the marked fields.',
    failed: 'Not sent: Intake could not be reached, or this page may not post to this form.',
    sent: 'Sent.',
  };

  /** A text of the form's own (data-intake-text-NAME) or the default. */
  function text(form, name) {
    return form.getAttribute('data-intake-text-' + name) || TEXTS[name];
  }

  function say(form, message) {
    form.__intakeStatus.textContent = message;
  }

  function clearErrors(form) {
    var shown = form.querySelectorAll('[data-intake-error]');
    for (var i = 0; i < shown.length; i++) {
      var control = form.querySelector('[aria-describedby~="' + shown[i].id + '"]');
      if (control) {
        control.removeAttribute('aria-invalid');
        control.setAttribute(
          'aria-describedby',
          (control.getAttribute('aria-describedby') || '').replace(shown[i].id, '').trim(),
        );
      }
      shown[i].remove();
    }
  }

  /** The control of a refused field: `tags[2]` is the third control named tags (or tags[]). */
  function controlOf(form, path) {
    var match = /^(.*?)\[(\d+)\]$/.exec(path);
    var name = match ? match[1] : path;
    var all = form.querySelectorAll('[name]');
    var found = [];
    for (var i = 0; i < all.length; i++) {
      var candidate = all[i].getAttribute('name');
      if (candidate === name || candidate === name + '[]') {
        found.push(all[i]);
      }
    }
    return found[match ? Number(match[2]) : 0] || found[0] || null;
  }

  function showFieldErrors(form, errors) {
    var first = null;
    errors.forEach(function (error, index) {
      var control = controlOf(form, error.path);
      var note = document.createElement('span');
      note.id = 'intake-error-' + Date.now() + '-' + index;
      note.setAttribute('data-intake-error', '');
      note.className = 'intake-error';
      note.textContent = ' ' + error.path + ': ' + error.reason;
      if (control) {
        control.setAttribute('aria-invalid', 'true');
        control.setAttribute(
          'aria-describedby',
          ((control.getAttribute('aria-describedby') || '') + ' ' + note.id).trim(),
        );
        control.insertAdjacentElement('afterend', note);
        first = first || control;
      } else {
        form.__intakeStatus.insertAdjacentElement('beforebegin', note);
      }
    });
    if (first) {
      first.focus();
    }
  }

  function refused(form, status, problem) {
    var widget = form.querySelector('altcha-widget');
    if (problem && problem.code === 'fields_invalid' && problem.errors) {
      showFieldErrors(form, problem.errors);
      say(form, text(form, 'fix'));
      return;
    }
    // Any other refusal may have used the challenge: the next send solves a new one.
    if (widget && widget.reset) {
      widget.reset();
    }
    say(form, problem && problem.detail ? problem.detail : text(form, 'failed') + ' (' + status + ')');
  }

  function parsed(body) {
    try {
      return JSON.parse(body);
    } catch {
      return null;
    }
  }

  function answered(form, status, body) {
    var answer = parsed(body);
    form.__intakeBusy = false;
    if (status === 201 && answer && answer.thankYouUrl) {
      say(form, text(form, 'sent'));
      window.location.assign(new URL(answer.thankYouUrl, form.action).href);
      return;
    }
    refused(form, status, answer);
  }

  function failed(form) {
    form.__intakeBusy = false;
    say(form, text(form, 'failed'));
  }

  function hasFiles(data) {
    var found = false;
    data.forEach(function (value) {
      found = found || (typeof File !== 'undefined' && value instanceof File && value.size > 0);
    });
    return found;
  }

  /** With files: XMLHttpRequest, whose upload reports its progress. */
  function sendWithProgress(form, data) {
    var progress = form.__intakeProgress;
    var request = new XMLHttpRequest();
    request.open('POST', form.action);
    request.setRequestHeader('Accept', 'application/json');
    request.upload.addEventListener('progress', function (event) {
      if (event.lengthComputable) {
        progress.hidden = false;
        progress.value = Math.round((event.loaded / event.total) * 100);
      }
    });
    request.addEventListener('load', function () {
      progress.hidden = true;
      answered(form, request.status, request.responseText);
    });
    request.addEventListener('error', function () {
      progress.hidden = true;
      failed(form);
    });
    request.send(data);
  }

  function send(form, submitter) {
    if (form.__intakeBusy) {
      return;
    }
    form.__intakeBusy = true;
    clearErrors(form);
    var widget = form.querySelector('altcha-widget');
    var solved = Promise.resolve(true);
    if (widget && widget.getState && widget.getState() !== 'verified') {
      say(form, text(form, 'checking'));
      solved = widget.verify().then(function (result) {
        return Boolean(result);
      });
    }
    solved.then(
      function (ok) {
        if (!ok) {
          failed(form);
          return;
        }
        say(form, text(form, 'sending'));
        var data = submitter ? new FormData(form, submitter) : new FormData(form);
        if (hasFiles(data)) {
          sendWithProgress(form, data);
          return;
        }
        fetch(form.action, { method: 'POST', body: data, headers: { Accept: 'application/json' }, credentials: 'omit' })
          .then(function (response) {
            return response.text().then(function (body) {
              answered(form, response.status, body);
            });
          })
          .catch(function () {
            failed(form);
          });
      },
      function () {
        failed(form);
      },
    );
  }

  function enhance(form) {
    if (form.__intakeStatus) {
      return;
    }
    var status = form.querySelector('[data-intake-status]');
    if (!status) {
      status = document.createElement('p');
      status.setAttribute('role', 'status');
      form.appendChild(status);
    }
    var progress = document.createElement('progress');
    progress.max = 100;
    progress.value = 0;
    progress.hidden = true;
    progress.setAttribute('aria-label', 'Upload');
    status.insertAdjacentElement('beforebegin', progress);
    form.__intakeStatus = status;
    form.__intakeProgress = progress;
    // The widget solves on submit by itself; when it cannot (no challenge from Intake), say so here.
    var widget = form.querySelector('altcha-widget');
    if (widget) {
      widget.addEventListener('statechange', function (event) {
        var state = event.detail && event.detail.state;
        if (state === 'verifying') {
          say(form, text(form, 'checking'));
        } else if (state === 'error' && !form.__intakeBusy) {
          failed(form);
        }
      });
    }
    form.addEventListener('submit', function (event) {
      // The widget holds a first submit back while it solves, then submits again.
      if (event.defaultPrevented) {
        return;
      }
      event.preventDefault();
      send(form, event.submitter);
    });
  }

  function start() {
    var forms = document.querySelectorAll('form[data-intake-form]');
    for (var i = 0; i < forms.length; i++) {
      enhance(forms[i]);
    }
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
