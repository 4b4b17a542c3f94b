"""Page helpers for the Streamlit app (app_pages/ holds the routes): the sidebar, cached resources, tables,
session state, and the panels pages share. Only the UI imports this package; core never does."""
