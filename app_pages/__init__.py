"""The app's routes, one module per page, registered with `st.navigation` in app.py; logic lives in core/ and
shared page pieces in ui/."""
